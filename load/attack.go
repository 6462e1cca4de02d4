package load

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/conform-harness/conform/client"
)

// Offer is a short, exact burst of requests, as the limit scenarios send
// them: Requests requests at Rate per second (or as fast as Workers allow)
// from one source address, each built fresh by Build. It is a thin layer
// over Vegeta's Attacker and Targeter, keeping every answer (status, body,
// timing) for the caller to judge.
type Offer struct {
	// Requests is how many requests to send (at least 1).
	Requests int
	// Rate is requests per second; 0 sends as fast as the workers can.
	Rate int
	// Workers bounds the requests in flight, and so (with keep-alive) the
	// connections; default 8.
	Workers int
	// LocalIP is the source address (nil: the system's choice). On
	// loopback any address of 127.0.0.0/8 works on Linux.
	LocalIP net.IP
	// NoKeepAlive opens a connection per request.
	NoKeepAlive bool
	// TLS configures https connections (nil: the system's roots).
	TLS *tls.Config
	// Timeout bounds each request; default 10 s.
	Timeout time.Duration
	// MaxBody bounds how much of each answer is kept; default 64 KiB.
	MaxBody int64
	// Build fills in request i (0 to Requests-1). It is called once per
	// request, just before that request is sent, so timestamps, nonces and
	// signatures are fresh; calls may be concurrent.
	Build func(i int, t *vegeta.Target) error
	// Client, when set, carries the requests instead of a transport of the
	// offer's own: its connections (opened and warmed beforehand, kept
	// between offers) are the caller's, and LocalIP and NoKeepAlive are
	// its business. Over a path with latency, an offer on fresh
	// connections spends round trips on handshakes before its first
	// request leaves.
	Client *http.Client
	// Guard is the live-trading guard every built request passes: an
	// authenticated POST, PUT, PATCH or DELETE is not sent unless it
	// permits trading (nil refuses, see client.Guard), and the offer fails
	// with an error wrapping client.ErrLiveTrading.
	Guard *client.Guard
}

// Answer is what came back for one request.
type Answer struct {
	// Seq orders requests by the time Vegeta sent them.
	Seq uint64
	// Status is the HTTP status, 0 when no answer came (see Err).
	Status int
	Body   []byte
	Header http.Header
	// Sent is when the request started; Latency how long its answer took.
	Sent    time.Time
	Latency time.Duration
	// Err is a transport error (connection refused, timeout); empty when
	// the target answered, whatever the status.
	Err string
}

// Received is when the answer was complete.
func (a Answer) Received() time.Time { return a.Sent.Add(a.Latency) }

func (o Offer) withDefaults() (Offer, error) {
	switch {
	case o.Requests < 1:
		return o, fmt.Errorf("load: an offer needs at least 1 request, got %d", o.Requests)
	case o.Rate < 0:
		return o, fmt.Errorf("load: negative rate %d", o.Rate)
	case o.Build == nil:
		return o, errors.New("load: an offer needs a Build function")
	}
	if o.Workers <= 0 {
		o.Workers = 8
	}
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	if o.MaxBody <= 0 {
		o.MaxBody = 64 << 10
	}
	return o, nil
}

// Send makes the offer and returns every answer in the order sent. The
// error is about the offer itself (invalid, a Build failure, ctx done);
// failed requests are answers with Err set.
func (o Offer) Send(ctx context.Context) ([]Answer, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	var opts []func(*vegeta.Attacker)
	if o.Client != nil {
		// The caller's client, as it is: the options that adjust a
		// transport (keep-alive, source address) would change its.
		opts = append(opts, vegeta.Client(o.Client))
	} else {
		// A transport of our own, so its connections can be closed when
		// the offer is over instead of lingering for the next one.
		tr := &http.Transport{
			Proxy:               nil, // the source address must be ours, never a proxy's
			DialContext:         (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
			MaxIdleConnsPerHost: o.Workers,
			IdleConnTimeout:     30 * time.Second,
			TLSClientConfig:     o.TLS,
		}
		defer tr.CloseIdleConnections()
		// Client first: it replaces the attacker's client, which the
		// options below then adjust (they reach the transport through it).
		opts = append(opts, vegeta.Client(&http.Client{Transport: tr}), vegeta.KeepAlive(!o.NoKeepAlive))
		if o.LocalIP != nil {
			opts = append(opts, vegeta.LocalAddr(net.IPAddr{IP: o.LocalIP}))
		}
	}
	opts = append(opts,
		vegeta.Timeout(o.Timeout),
		vegeta.Workers(uint64(o.Workers)),
		vegeta.MaxWorkers(uint64(o.Workers)),
		vegeta.MaxBody(o.MaxBody),
		vegeta.Redirects(vegeta.NoFollow),
	)
	atk := vegeta.NewAttacker(opts...)

	var (
		next     atomic.Int64
		buildErr error
		once     sync.Once
	)
	targeter := vegeta.Targeter(func(t *vegeta.Target) error {
		i := int(next.Add(1) - 1)
		if i >= o.Requests {
			return vegeta.ErrNoTargets
		}
		*t = vegeta.Target{}
		err := o.Build(i, t)
		if err == nil {
			err = o.Guard.CheckHeader(t.Method, t.URL, t.Header)
		}
		if err != nil {
			once.Do(func() { buildErr = fmt.Errorf("load: building request %d: %w", i, err) })
			return err
		}
		return nil
	})
	pacer := countedPacer{n: uint64(o.Requests)} // zero rate: as fast as possible
	if o.Rate > 0 {
		pacer.ConstantPacer = vegeta.ConstantPacer{Freq: o.Rate, Per: time.Second}
	}

	finished := make(chan struct{})
	defer close(finished)
	go func() {
		select {
		case <-ctx.Done():
			atk.Stop()
		case <-finished:
		}
	}()
	answers := make([]Answer, 0, o.Requests)
	for r := range atk.Attack(targeter, pacer, 0, "conform") {
		a := Answer{Seq: r.Seq, Status: int(r.Code), Body: r.Body, Header: r.Headers, Sent: r.Timestamp, Latency: r.Latency}
		if r.Code == 0 {
			a.Err = r.Error
		}
		answers = append(answers, a)
	}
	sort.Slice(answers, func(i, j int) bool { return answers[i].Seq < answers[j].Seq })
	if buildErr != nil {
		return answers, buildErr
	}
	if err := ctx.Err(); err != nil {
		return answers, err
	}
	return answers, nil
}

// countedPacer is a constant pacer that stops after n hits.
type countedPacer struct {
	vegeta.ConstantPacer
	n uint64
}

// Pace implements vegeta.Pacer.
func (p countedPacer) Pace(elapsed time.Duration, hits uint64) (time.Duration, bool) {
	if hits >= p.n {
		return 0, true
	}
	return p.ConstantPacer.Pace(elapsed, hits)
}
