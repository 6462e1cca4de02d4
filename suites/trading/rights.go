package trading

import (
	"fmt"
	"slices"

	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
)

// RightsEntries are the rows of an access-rights table (role, endpoint,
// answered): every endpoint guarded by Place/cancel orders (changes) is
// refused to the read-only and no-rights keys, and, when changesAnswered,
// answered for the trade-only key; every endpoint guarded by Orderbook,
// History, Trading balance (reads) is refused to the no-rights and
// trade-only keys and answered for the read-only key. Endpoints are sorted:
// every Ginkgo process must build the same spec tree.
func RightsEntries(changes, reads []string, changesAnswered bool) []TableEntry {
	var out []TableEntry
	refused := func(role, name string) TableEntry {
		return Entry(fmt.Sprintf("%s key: %s is refused", role, name), role, name, false)
	}
	answered := func(role, name string) TableEntry {
		return Entry(fmt.Sprintf("%s key: %s is answered", role, name), role, name, true)
	}
	for _, name := range slices.Sorted(slices.Values(changes)) {
		out = append(out, refused(target.RoleReadOnly, name), refused(target.RoleNoRights, name))
		if changesAnswered {
			out = append(out, answered(target.RoleTradeOnly, name))
		}
	}
	for _, name := range slices.Sorted(slices.Values(reads)) {
		out = append(out, refused(target.RoleNoRights, name), refused(target.RoleTradeOnly, name), answered(target.RoleReadOnly, name))
	}
	return out
}
