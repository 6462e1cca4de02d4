package faults

// catalogue lists every fault, one file per area (the same areas, and file
// names, as the rule catalogue). Keep one entry per rule; the switch itself
// is an `if faults.On(<rule>)` at the one place in the emulator that enforces
// the rule.
var catalogue = concat(
	conventionsFaults,
	marketdataFaults,
	authFaults,
	spotFaults,
	orderlistsFaults,
	marginFaults,
	streampublicFaults,
	streamtradingFaults,
	streamwalletFaults,
	errorsFaults,
	limitsFaults,
	subaccountsFaults,
	buycryptoFaults,
	versioningFaults,
	v2subaccountsFaults,
	v2buycryptoFaults,
	v2conventionsFaults,
	v2marketdataFaults,
	v2historyFaults,
	v2accountFaults,
	v2authFaults,
	v2errorsFaults,
	v2limitsFaults,
	v2versioningFaults,
	v2streamsFaults,
)

func concat(groups ...[]Fault) []Fault {
	var out []Fault
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}
