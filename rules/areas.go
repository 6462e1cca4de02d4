package rules

// Area is one section of a document: the one cut shared by the catalogue
// (rules/<name>.go), the emulator's faults (emulator/faults/<name>.go), the
// suites (suites/<name>/) and the
// report groups.
type Area struct {
	// Name is the identifier used in every layer.
	Name string `json:"name"`
	// Document is the document the area comes from: "api-v3.md" or "api-v2.md".
	Document string `json:"document"`
	// Title is the document's heading for the area.
	Title string `json:"title"`
}

// Areas lists every area in document order, v3 first.
func Areas() []Area { return append([]Area(nil), areas...) }

var areas = []Area{
	{"conventions", v3Doc, "Conventions"},
	{"marketdata", v3Doc, "Market data"},
	{"auth", v3Doc, "Authentication"},
	{"spot", v3Doc, "Spot trading"},
	{"orderlists", v3Doc, "Order lists"},
	{"margin", v3Doc, "Margin trading"},
	{"subaccounts", v3Doc, "Sub-accounts"},
	{"buycrypto", v3Doc, "Buy crypto"},
	{"streampublic", v3Doc, "Market data stream"},
	{"streamtrading", v3Doc, "Trading stream"},
	{"streamwallet", v3Doc, "Wallet stream"},
	{"errors", v3Doc, "Errors"},
	{"limits", v3Doc, "Limits"},
	{"versioning", v3Doc, "Versioning"},
	{"v2conventions", v2Doc, "Conventions"},
	{"v2marketdata", v2Doc, "Public market data"},
	{"v2history", v2Doc, "Trading history"},
	{"v2account", v2Doc, "Account management"},
	{"v2subaccounts", v2Doc, "Sub-accounts"},
	{"v2buycrypto", v2Doc, "Buy crypto"},
	{"v2streams", v2Doc, "Streaming (JSON-RPC 2.0)"},
	{"v2auth", v2Doc, "Authentication"},
	{"v2errors", v2Doc, "Errors"},
	{"v2limits", v2Doc, "Limits"},
	{"v2versioning", v2Doc, "Versioning"},
}

const (
	v3Doc = "api-v3.md"
	v2Doc = "api-v2.md"
)

// LookupArea finds an area by name.
func LookupArea(name string) (Area, bool) {
	for _, a := range areas {
		if a.Name == name {
			return a, true
		}
	}
	return Area{}, false
}

// AreaLabelPrefix starts the Ginkgo label naming a spec's area.
const AreaLabelPrefix = "area:"
