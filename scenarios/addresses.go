package scenarios

import (
	"context"
	"fmt"
	"net"
	"sync"
	"time"
)

// The scenarios' own source addresses: 127.0.1.1 to 127.0.9.254. Functional
// specs use other loopback addresses (127.0.0.x and the framework's
// per-process ranges), so no functional spec ever spends a budget a
// scenario is measuring, nor the reverse.
const (
	firstSubnet = 1
	lastSubnet  = 9
	perSubnet   = 254 // .1 to .254
)

// Addresses hands out the scenarios' source addresses, each once. It is
// safe for concurrent use.
type Addresses struct {
	mu   sync.Mutex
	next int
}

// Next returns an address no scenario of this run has used.
func (a *Addresses) Next() (net.IP, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.next >= (lastSubnet-firstSubnet+1)*perSubnet {
		return nil, fmt.Errorf("scenarios: the reserved addresses 127.0.%d.0/24 to 127.0.%d.0/24 are used up", firstSubnet, lastSubnet)
	}
	i := a.next
	a.next++
	return net.IPv4(127, 0, byte(firstSubnet+i/perSubnet), byte(1+i%perSubnet)), nil
}

// Take returns n fresh addresses.
func (a *Addresses) Take(n int) ([]net.IP, error) {
	out := make([]net.IP, n)
	for i := range out {
		ip, err := a.Next()
		if err != nil {
			return nil, err
		}
		out[i] = ip
	}
	return out, nil
}

// CanBind reports whether this machine lets a client connect to hostport
// from the scenarios' addresses (Linux routes all of 127.0.0.0/8 to the
// loopback interface; other systems may have 127.0.0.1 only).
func CanBind(ctx context.Context, hostport string) error {
	d := net.Dialer{Timeout: 3 * time.Second, LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, lastSubnet, perSubnet)}}
	c, err := d.DialContext(ctx, "tcp", hostport)
	if err != nil {
		return fmt.Errorf("cannot connect to %s from 127.0.%d.%d: %w", hostport, lastSubnet, perSubnet, err)
	}
	return c.Close()
}
