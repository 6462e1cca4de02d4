package faults

// v2subaccountsFaults break the rules of the v2subaccounts area (rules/v2subaccounts.go).
var v2subaccountsFaults = []Fault{
	{"V2-SUBACC-FREEZE", "(api v2) answers freeze with result true and changes nothing"},
	{"V2-SUBACC-FREEZE-CANCELS", "(api v2) freezes but leaves the sub-account's orders active (a v3 freeze still cancels them)"},
	{"V2-SUBACC-FREEZE-FUNDS", "(api v2) freezes but leaves the sub-account's funds on its trading balance (a v3 freeze still moves them)"},
	{"V2-SUBACC-IDS-LIST", "(api v2) freezes only the first of the listed ids"},
	{"V2-SUBACC-ACTIVATE", "(api v2) answers activate with result true and leaves a frozen sub-account frozen"},
	{"V2-SUBACC-ACTIVATE-DISABLED", "(api v2) answers result true when activating a disabled sub-account"},
	{"V2-SUBACC-RIGHT-NONE", "(api v2) requires Payment information for the sub-account deposit address"},
	{"V2-SUBACC-RIGHTS", "(api v2) serves POST /sub-acc/transfer to keys without Withdraw cryptocurrencies"},
	{"V2-SUBACC-TRANSFER-DEPOSIT", "(api v2) deposits the amount truncated to 4 decimals"},
	{"V2-SUBACC-TRANSFER-WITHDRAW", "(api v2) takes a withdraw for a deposit"},
	{"V2-SUBACC-TRANSFER-V3-NAMES", "(api v2) takes version 3's to_sub_account and from_sub_account types and its sub_account_id field on POST /sub-acc/transfer"},
	{"V2-SUBACC-TRANSFER-FUNDS", "(api v2) lets a sub-account transfer overdraw the source"},
	{"V2-SUBACC-TRANSFER-FROZEN", "(api v2) answers a transfer with a frozen sub-account with 10021 instead of 500"},
	{"V2-SUBACC-ERR-500", "(api v2) answers an unknown sub-account with 400 and code 10001"},
	{"V2-SUBACC-ERR-10021", "(api v2) freezes a frozen sub-account again with result true"},
	{"V2-SUBACC-ERR-MESSAGES", "(api v2) answers 10021 with the message Sub-account is disabled and an unknown sub-account's 500 with Sub-account not found"},
	{"V2-SUBACC-ACL-GET", "(api v2) writes subAccountId as the hex String"},
	{"V2-SUBACC-ACL-FROZEN", "(api v2) lists frozen and disabled sub-accounts in the ACL read"},
	{"V2-SUBACC-ACL-PUT", "(api v2) answers PUT /sub-acc/acl with isPayoutEnabled inverted"},
	{"V2-SUBACC-BALANCE", "(api v2) leaves the main array out of the sub-account balance"},
	{"V2-SUBACC-ADDRESS", "(api v2) answers the deposit address without address"},
	{"V2-SUBACC-ADDRESS-NETWORK", "(api v2) ignores networkCode on the sub-account deposit address: answers the default network's address and networkCode"},
	{"V2-SUBACC-V3-STATE", "(api v2) keeps a state of its own: freeze through v2 does not freeze for v3"},
}
