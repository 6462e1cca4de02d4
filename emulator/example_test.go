package emulator_test

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/emulator"
	"github.com/conform-harness/conform/emulator/clock"
	"github.com/conform-harness/conform/fixtures"
)

// ExampleNew starts an emulator on a free loopback port with a manual clock,
// places a resting limit order with the harness's client (signed with HS256
// by a fixture key), reads it back and stops the emulator.
func ExampleNew() {
	clk := clock.NewManual(time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC))
	emu, err := emulator.New(emulator.Options{Clock: clk})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := emu.Start(); err != nil {
		fmt.Println(err)
		return
	}
	defer emu.Close()

	accts, _ := fixtures.Accounts()
	key := accts[0].Keys[0] // the full-rights key of the first fixture account
	c, err := client.New(emu.URL(), client.WithAuth(client.HS256{Key: key.APIKey, Secret: key.Secret}), client.WithGuard(client.PermitTrading()))
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	ex, err := c.Do(ctx, client.Request{Method: "POST", Path: "/spot/order", Form: url.Values{
		"client_order_id": {"example-order-1"}, "symbol": {"ETHBTC"}, "side": {"buy"},
		"quantity": {"0.01"}, "price": {"0.001"}}})
	if err != nil {
		fmt.Println(err)
		return
	}
	var placed struct{ Status, Symbol string }
	_ = ex.Decode(&placed)
	fmt.Println(ex.Status, placed.Symbol, placed.Status)

	ex, _ = c.Do(ctx, client.Request{Method: "GET", Path: "/spot/order/example-order-1"})
	fmt.Println(ex.Status)
	// Output:
	// 200 ETHBTC new
	// 200
}
