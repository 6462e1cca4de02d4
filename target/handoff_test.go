package target

import (
	"reflect"
	"testing"
)

func TestHandoffRoundTrip(t *testing.T) {
	c := Config{REST: "https://h", WS: "wss://h", Sandbox: true, RESTSandbox: true, WSSandbox: true, AllowLiveTrading: true,
		Emulator: true, ControlURL: "https://h/_conform", WSEmulator: true, ControlToken: "tok", SharedSource: true, CAFile: "/etc/ca.pem",
		Accounts:    map[string]Account{RoleFull: {APIKey: "k", Secret: "s", Rights: []string{"orderbook"}}},
		AccountSets: []map[string]Account{{RoleFull: {APIKey: "k2", Secret: "s2"}}}}
	s, err := c.Handoff()
	if err != nil {
		t.Fatal(err)
	}
	got, err := FromHandoff(s)
	if err != nil || !reflect.DeepEqual(got, c) {
		t.Errorf("round trip:\n got %+v, %v\nwant %+v", got, err, c)
	}
	// Every field of Config travels: a new setting needs no second path.
	v := reflect.ValueOf(c)
	for i := range v.NumField() {
		if v.Field(i).IsZero() {
			t.Errorf("Config.%s is not set above: set it so that the round trip covers it", v.Type().Field(i).Name)
		}
	}
	if got, err := FromHandoff(""); err != nil || !reflect.DeepEqual(got, Config{}) {
		t.Errorf("empty: %+v, %v; want the embedded emulator's zero config", got, err)
	}
	for _, bad := range []string{"{", `{"rest":"h","restt":"x"}`} {
		if _, err := FromHandoff(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
