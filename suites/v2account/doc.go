// Package v2account holds the conformance specs of the account management
// of API v2 (api-v2.md, Endpoints: Account management; the Balance, Deposit
// address, Wallet transaction and Fee level resources; the two-phase
// withdrawal of States and transitions). Specs that move funds off the
// account (withdrawals, transfers) run only on the emulator or a declared
// sandbox: the client's live-trading guard refuses them elsewhere and the
// spec is skipped with the reason.
package v2account
