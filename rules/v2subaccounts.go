package rules

// Sections of the v2 sub-account rules.
const (
	secV2SubAccounts = "v2 Endpoints: Sub-accounts"
	secV2SubRecords  = "v2 Resources: Sub-account records (v2)"
	secV2SubErrors   = "v2 Errors (sub-accounts)"
	secV2SubStates   = "v2 States and transitions (sub-accounts)"
)

// v2subaccountsRules is the v2subaccounts area of the catalogue.
var v2subaccountsRules = []Rule{
	{ID: "V2-SUBACC-FREEZE", Area: "v2subaccounts", Section: secV2SubStates, Status: Testable,
		Statement: "POST /sub-acc/freeze with ids answers result true and the sub-account is frozen (its ACL read is then an empty array)."},
	{ID: "V2-SUBACC-FREEZE-CANCELS", Area: "v2subaccounts", Section: secV2SubStates, Status: Testable,
		Statement: "Freezing a sub-account through POST /sub-acc/freeze cancels its active orders (\"all their orders are canceled\"): once activated again it has none of them active."},
	{ID: "V2-SUBACC-FREEZE-FUNDS", Area: "v2subaccounts", Section: secV2SubStates, Status: Testable,
		Statement: "Freezing a sub-account through POST /sub-acc/freeze moves its funds off the trading balance (\"funds moved off the trading balance\"): GET /sub-acc/balance shows nothing available or reserved in its trading array afterwards."},
	{ID: "V2-SUBACC-ACTIVATE", Area: "v2subaccounts", Section: secV2SubStates, Status: Testable,
		Statement: "POST /sub-acc/activate restores a frozen sub-account with result true (its ACL is read again)."},
	{ID: "V2-SUBACC-ACTIVATE-DISABLED", Area: "v2subaccounts", Section: secV2SubStates, Status: Testable,
		Statement: "POST /sub-acc/activate of a disabled sub-account answers result false (\"activation restores a frozen account, and returns result false for a disabled one\"), no error, and it stays disabled (its ACL read is still an empty array)."},
	{ID: "V2-SUBACC-IDS-LIST", Area: "v2subaccounts", Section: secV2SubAccounts, Status: Testable,
		Statement: "ids of freeze and activate and subAccountIds of the ACL read are comma-separated lists: one request freezes (activates, reads) every listed sub-account."},
	{ID: "V2-SUBACC-RIGHT-NONE", Area: "v2subaccounts", Section: secV2SubAccounts, Status: Testable,
		Statement: "Freeze, activate and the sub-account deposit address need no access right."},
	{ID: "V2-SUBACC-RIGHTS", Area: "v2subaccounts", Section: secV2SubAccounts, Status: Testable,
		Statement: "POST /sub-acc/transfer needs Withdraw cryptocurrencies, and the ACL and balance endpoints Payment information; a key lacking the right gets 1003 with HTTP 403."},
	{ID: "V2-SUBACC-TRANSFER-DEPOSIT", Area: "v2subaccounts", Section: secV2SubAccounts, Status: Testable,
		Statement: "POST /sub-acc/transfer with type deposit moves exactly amount to the sub-account and answers result, a String."},
	{ID: "V2-SUBACC-TRANSFER-WITHDRAW", Area: "v2subaccounts", Section: secV2SubAccounts, Status: Testable,
		Statement: "POST /sub-acc/transfer with type withdraw moves exactly amount from the sub-account."},
	{ID: "V2-SUBACC-TRANSFER-FUNDS", Area: "v2subaccounts", Section: secV2SubErrors, Status: Testable,
		Statement: "Insufficient funds in a sub-account transfer surface as code 20001."},
	{ID: "V2-SUBACC-TRANSFER-FROZEN", Area: "v2subaccounts", Section: secV2SubErrors, Status: Testable,
		Statement: "A sub-account transfer to a frozen or disabled sub-account surfaces as HTTP 500 (code 500)."},
	{ID: "V2-SUBACC-ERR-500", Area: "v2subaccounts", Section: secV2SubErrors, Status: Testable,
		Statement: "A sub-account that cannot be found yields HTTP 500 with code 500 and the error body."},
	{ID: "V2-SUBACC-ERR-10021", Area: "v2subaccounts", Section: secV2SubErrors, Status: Testable,
		Statement: "Freezing a frozen sub-account or changing its ACL yields 10021 (user disabled) with HTTP 400."},
	{ID: "V2-SUBACC-ERR-MESSAGES", Area: "v2subaccounts", Section: secV2SubErrors, Status: Testable,
		Statement: "The sub-account codes come with the messages of the v2 Errors table: 10021 user disabled (a frozen sub-account) and 500 Internal Server Error (a sub-account that cannot be found)."},
	{ID: "V2-SUBACC-ACL-GET", Area: "v2subaccounts", Section: secV2SubRecords, Status: Testable,
		Statement: "GET /sub-acc/acl with subAccountIds answers result, an array of withdrawal settings: subAccountId Number, isPayoutEnabled Boolean, description String."},
	{ID: "V2-SUBACC-ACL-FROZEN", Area: "v2subaccounts", Section: secV2SubAccounts, Status: Testable,
		Statement: "GET /sub-acc/acl answers an empty array for a frozen or disabled sub-account."},
	{ID: "V2-SUBACC-ACL-PUT", Area: "v2subaccounts", Section: secV2SubAccounts, Status: Testable,
		Statement: "PUT /sub-acc/acl/{subAccountUserId} with isPayoutEnabled and description answers result, settings echoing the request values."},
	{ID: "V2-SUBACC-BALANCE", Area: "v2subaccounts", Section: secV2SubRecords, Status: Testable,
		Statement: "GET /sub-acc/balance/{subAccountUserID} answers result with main and trading arrays of {currency, available, reserved}, in any sub-account state."},
	{ID: "V2-SUBACC-ADDRESS", Area: "v2subaccounts", Section: secV2SubRecords, Status: Testable,
		Statement: "GET /sub-acc/deposit-address/{subAccountUserId}/{currency} answers result, a deposit address: address String, paymentId, publicKey and networkCode Strings when present."},
	{ID: "V2-SUBACC-ADDRESS-NETWORK", Area: "v2subaccounts", Section: secV2SubRecords, Status: Testable,
		Statement: "GET /sub-acc/deposit-address/{subAccountUserId}/{currency} takes networkCode: with a non-default network the currency lists it answers result, a deposit address (address String) whose networkCode, when present, is that network."},
	{ID: "V2-SUBACC-V3-STATE", Area: "v2subaccounts", Section: secV2SubStates, Status: Testable,
		Statement: "Version 2 and version 3 show one sub-account state: frozen through one version, it is frozen through the other, and activated likewise."},
	{ID: "V2-SUBACC-ID", Area: "v2subaccounts", Section: secV2SubAccounts, Status: Ambiguous,
		Reason:    "v2 names sub-accounts by numeric user id (subAccountId Number) and v3 by a hex sub_account_id String; neither document maps one to the other",
		Statement: "Whether version 2 takes the hex sub_account_id version 3 lists."},
	{ID: "V2-SUBACC-TRANSFER-REQUIRED", Area: "v2subaccounts", Section: secV2SubAccounts, Status: Testable,
		Statement: "subAccountId, amount, currency and type of POST /sub-acc/transfer are required (none is marked optional): a transfer without one is refused with 10001 and HTTP 400 and moves nothing."},
	{ID: "V2-SUBACC-ACL-PUT-REQUIRED", Area: "v2subaccounts", Section: secV2SubAccounts, Status: Testable,
		Statement: "isPayoutEnabled and description of PUT /sub-acc/acl/{subAccountUserId} are required (neither is marked optional): a change without one is refused with 10001 and HTTP 400 and the settings stay as they were."},
	{ID: "V2-SUBACC-IDS-REQUIRED", Area: "v2subaccounts", Section: secV2SubAccounts, Status: Testable,
		Statement: "ids of POST /sub-acc/freeze and POST /sub-acc/activate is required: a request without it is refused with 10001 and HTTP 400."},
	{ID: "V2-OOS-SUBACC-LIST", Area: "v2subaccounts", Section: secV2SubAccounts, Status: OutOfScope, Reason: notShown,
		Statement: "The response of the sub-account listing GET /sub-acc."},
}
