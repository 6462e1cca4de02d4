package faults

// v2accountFaults break the rules of the v2account area (rules/v2account.go).
var v2accountFaults = []Fault{
	{"V2-BALANCE-FIELDS", "leaves reserved out of GET /api/2/account/balance"},
	{"V2-ACCOUNT-TRANSFER", "moves bankToExchange transfers from trading to main and exchangeToBank the other way"},
	{"V2-ACCOUNT-ADDRESS-CURRENT", "makes a new deposit address on every GET"},
	{"V2-ACCOUNT-ADDRESS-NEW", "answers POST with the current address instead of a new one"},
	{"V2-ACCOUNT-ADDRESSES-LAST10", "lists the last 11 deposit addresses"},
	{"V2-ACCOUNT-USED-ADDRESSES", "forgets the latest address withdrawn to"},
	{"V2-ACCOUNT-IS-MINE", "answers false for the account's own deposit addresses"},
	{"V2-ACCOUNT-ESTIMATE-LEVELS", "marks no fee level default"},
	{"V2-ACCOUNT-WITHDRAW-INCLUDE-FEE", "charges one unit of the last place more than estimate-withdraw's fee"},
	{"V2-ACCOUNT-WITHDRAW-COMMIT", "answers result false to a repeated commit"},
	{"V2-ACCOUNT-WITHDRAW-ROLLBACK", "answers rollback with result true without releasing the funds"},
	{"V2-ACCOUNT-INTERNAL", "never credits the recipient of an internal transfer"},
	{"V2-ACCOUNT-TRANSFER-CONVERT", "answers transfer-convert with an empty result"},
	{"V2-TX-FIELDS", "writes the transaction index as a string"},
	{"V2-TX-STATUS-VALUES", "writes status completed instead of success"},
	{"V2-TX-FILTER", "ignores the currency filter of GET /api/2/account/transactions"},
	{"V2-TX-SORT", "sorts transactions ASC by default"},
	{"V2-TX-BY-INDEX", "ignores from and till when by is index"},
	{"V2-TX-PAGING", "ignores offset and answers one transaction more than limit"},
	{"V2-TX-SHOW-SENDERS", "sends senders on payins whatever showSenders says"},
	{"V2-TX-ONE", "answers GET /api/2/account/transactions/{id} with the newest transaction"},
	{"V2-TX-PAYOUT", "drops the publicComment of withdrawals"},
}
