package load

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/conform-harness/conform/client"
)

// An offer of authenticated mutating requests sends nothing unless its guard
// permits trading; reads and anonymous requests always go.
func TestOfferConsultsTheLiveTradingGuard(t *testing.T) {
	var arrived atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { arrived.Add(1) }))
	defer srv.Close()
	for _, tc := range []struct {
		name   string
		method string
		auth   bool
		guard  *client.Guard
		sent   int32
	}{
		{"authenticated DELETE, no guard", http.MethodDelete, true, nil, 0},
		{"authenticated POST, refusing guard", http.MethodPost, true, client.RefuseTrading("not a sandbox"), 0},
		{"authenticated DELETE, permitting guard", http.MethodDelete, true, client.PermitTrading(), 5},
		{"authenticated GET, no guard", http.MethodGet, true, nil, 5},
		{"anonymous POST, no guard", http.MethodPost, false, nil, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			arrived.Store(0)
			_, err := Offer{Requests: 5, Workers: 2, Guard: tc.guard, Build: func(_ int, tg *vegeta.Target) error {
				tg.Method, tg.URL, tg.Header = tc.method, srv.URL+"/api/3/margin/position/isolated/ETHBTC", http.Header{}
				if tc.auth {
					tg.Header.Set("Authorization", "Basic eDp5")
				}
				return nil
			}}.Send(context.Background())
			if got := arrived.Load(); got != tc.sent {
				t.Errorf("%d requests arrived, want %d (err %v)", got, tc.sent, err)
			}
			if tc.sent == 0 && !errors.Is(err, client.ErrLiveTrading) {
				t.Errorf("err = %v, want ErrLiveTrading", err)
			}
		})
	}
}
