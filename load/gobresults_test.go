package load

import (
	"bytes"
	"encoding/gob"
	"math"
	"net/http"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// The results file must stay Vegeta's gob, byte for byte: other tools
// (vegeta report, conform load merge) read it.
func TestGobResultsAsGob(t *testing.T) {
	at := time.Date(2026, 11, 28, 17, 30, 0, 123456789, time.UTC)
	local := time.Now() // with a monotonic reading and the local zone
	results := []vegeta.Result{
		{Attack: "public/w0/abcde", Seq: 0, Code: 200, Timestamp: at, Latency: 1500 * time.Microsecond, BytesIn: 140, Method: "GET", URL: "http://127.0.0.1:1/api/3/public/symbol"},
		{Attack: "public/w0/abcde", Seq: 1, Code: 200, Timestamp: local, Latency: time.Nanosecond, BytesIn: 140, Method: "GET", URL: "http://x/a"},
		{Attack: "public/w0/abcde", Seq: 127, Code: 200, Timestamp: at.Add(time.Second), Latency: -5, Method: "GET", URL: "http://x/a"},
		{Attack: "a", Seq: 128, Code: 503, Timestamp: at, Latency: time.Hour, Error: "503 Service Unavailable", Body: []byte("nope"),
			Headers: http.Header{"Content-Type": {"text/plain"}}, Method: "GET", URL: "http://x/b"},
		{Seq: math.MaxUint64, Timestamp: at.In(time.FixedZone("x", 3600)), Latency: math.MinInt64, BytesOut: 1 << 40, BytesIn: 255, Error: "Get \"http://x\": EOF", Method: "POST", URL: "http://x/c"},
		{},
		{Attack: "public/w0/abcde", Seq: 300, Code: 429, Timestamp: at, Latency: math.MaxInt64, Error: "429 Too Many Requests", Method: "GET", URL: "http://x/a"},
		{Attack: "b", Seq: 70000, Code: 200, Timestamp: at, Headers: http.Header{}, Body: []byte{}, Method: "DELETE"},
	}
	for start := range results { // each result first once: the first goes through gob
		var want, got bytes.Buffer
		enc, ours := gob.NewEncoder(&want), newGobResults(&got)
		for i := range results {
			r := results[(start+i)%len(results)]
			if err := enc.Encode(&r); err != nil {
				t.Fatal(err)
			}
			if err := ours.Encode(&r); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("from result %d:\n got %x\nwant %x", start, got.Bytes(), want.Bytes())
		}
		dec := vegeta.NewDecoder(&got)
		for i := range results {
			var r vegeta.Result
			if err := dec.Decode(&r); err != nil {
				t.Fatalf("from result %d, result %d: %v", start, i, err)
			}
		}
	}
}
