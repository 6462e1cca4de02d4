package faults

// v2versioningFaults break the rules of the v2versioning area (rules/v2versioning.go).
var v2versioningFaults = []Fault{
	{"V2-V3-SYMBOL-SAME", "swaps takeLiquidityRate and provideLiquidityRate in v2 Symbol records"},
	{"V2-V3-CURRENCY-SAME", "appends \" (v2)\" to the fullName of v2 Currency records"},
	{"V2-V3-PAYOUT-FEE-SAME", "answers payoutFee with twice the default network's payout fee"},
	{"V2-V3-NETWORK-SAME", "answers payinConfirmations one more than the default network's"},
	{"V2-V3-PRECISION-TRANSFER-SAME", "answers precisionTransfer one digit more than v3's precision_transfer"},
	{"V2-V3-TRADE-SAME", "negates the fee of v2 user trades"},
	{"V2-VERSION-NETWORK-PARAM", "refuses networkCode on estimate-withdraw with 10001"},
}
