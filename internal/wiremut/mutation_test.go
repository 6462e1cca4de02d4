package wiremut

import "testing"

func TestApply(t *testing.T) {
	cases := []struct {
		m        Mutation
		in, want string
	}{
		{Mutation{Kind: DropField, Field: "tick_size"}, `{"A":{"tick_size":"0.1","x":1}}`, `{"A":{"x":1}}`},
		{Mutation{Kind: DecimalToNumber}, `{"a":"0.1","b":"2.5"}`, `{"a":0.1,"b":"2.5"}`},
		{Mutation{Kind: DecimalToNumber, Seed: 1}, `["0.1","2.5"]`, `["0.1",2.5]`},
		{Mutation{Kind: SetValue, Field: "status", To: "zzz"}, `[{"status":"new"}]`, `[{"status":"zzz"}]`},
		{Mutation{Kind: ErrorCode, From: "10001", To: "10002"}, `{"error":{"code":10001}}`, `{"error":{"code":10002}}`},
		{Mutation{Kind: TimeToUnix, Field: "t"}, `{"t":"2021-01-01T00:00:00.000Z"}`, `{"t":1609459200}`},
		{Mutation{Kind: ReverseArrays}, `[1,2,3]`, `[3,2,1]`},
		{Mutation{Kind: TruncateArrays}, `[1,2,3]`, `[1,2]`},
		{Mutation{Kind: NumberToString, Field: "id"}, `{"id":12}`, `{"id":"12"}`},
		{Mutation{Kind: StringToBool, Field: "s"}, `{"s":"buy"}`, `{"s":true}`},
		{Mutation{Kind: ShiftID}, `{"id":7,"result":{"id":1}}`, `{"id":1007,"result":{"id":1}}`},
	}
	for _, c := range cases {
		got, ok := c.m.Apply([]byte(c.in))
		if !ok || string(got) != c.want {
			t.Errorf("%s on %s = %s (%v), want %s", c.m, c.in, got, ok, c.want)
		}
	}
	if _, ok := (Mutation{Kind: DropField, Field: "x"}).Apply([]byte(`{"y":1}`)); ok {
		t.Error("unchanged document reported as changed")
	}
}

func TestApplyBenign(t *testing.T) {
	const extra = `"x_wiremut_extra":{"note":"benign","n":1,"list":[1,"a",null]}`
	cases := []struct {
		m        Mutation
		in, want string
	}{
		{Mutation{Kind: AddField}, `{"a":{"b":"0.10"},"c":[{"d":1}]}`,
			`{` + extra + `,"a":{` + extra + `,"b":"0.10"},"c":[{` + extra + `,"d":1}]}`},
		// Objects keyed by data, empty objects and scalars get no field.
		{Mutation{Kind: AddField}, `{"BTCUSDT":[1],"E":{}}`, `{"BTCUSDT":[1],"E":{}}`},
		{Mutation{Kind: AddField}, `{"asset_id":{"contract":"0x1"}}`,
			`{` + extra + `,"asset_id":{"x_wiremut_extra":"benign","contract":"0x1"}}`},
		{Mutation{Kind: ReorderKeys}, `{"z":1,"a":{"y":2.50,"b":null}}`, `{"a":{"b":null,"y":2.50},"z":1}`},
		{Mutation{Kind: Pretty}, `{"a":[1]}`, "\n  {\n   \"a\": [\n      1\n   ]\n}\n\n"},
		{Mutation{Kind: AddField, Also: []Kind{ReorderKeys}}, `{"a":1,"b":2}`, `{` + extra + `,"b":2,"a":1}`},
	}
	for _, c := range cases {
		got, ok := c.m.Apply([]byte(c.in))
		if string(got) != c.want || ok != (c.in != c.want) {
			t.Errorf("%s on %s = %s (%v), want %s", c.m, c.in, got, ok, c.want)
		}
	}
	for _, m := range Benign() {
		if !m.Benign() {
			t.Errorf("%s in Benign() is not benign", m.Name)
		}
	}
	for _, m := range Table() {
		if m.Benign() {
			t.Errorf("%s in Table() is benign", m.Name)
		}
	}
}
