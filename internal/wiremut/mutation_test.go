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
