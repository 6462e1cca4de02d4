package load

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// httpVersion is the protocol every run speaks: HTTP/2 is switched off so
// that connections, and per-connection limits, mean the same on every target.
const httpVersion = "HTTP/1.1"

// GCPercent is the garbage-collection target a generating process should
// set (debug.SetGCPercent) for a run, as conform load does unless GOGC is
// set: collecting less often buys the generator 10 to 40% more requests per
// second on a small machine, for a few megabytes.
const GCPercent = 400

// Defaults of RunConfig.
const (
	DefaultTimeout        = 10 * time.Second
	DefaultProgressEvery  = time.Second
	DefaultCleanupTimeout = 30 * time.Second
	// maxErrorBody bounds the response body kept with a failed result;
	// successful results keep neither body nor headers, so that
	// results.bin stays small at high rates.
	maxErrorBody = 1024
)

// RunConfig configures one capacity run (one worker).
type RunConfig struct {
	// Base is the target's REST base URL (from ParseBase); requests go
	// nowhere else.
	Base     *url.URL
	Scenario Scenario
	Pacing   Pacing
	Duration time.Duration
	// Workers is the initial number of sending goroutines; more are
	// added, up to MaxWorkers, when a request comes due while all are
	// busy (at max rate: always).
	Workers, MaxWorkers uint64
	// Connections caps the open (and idle) connections to the target.
	Connections int
	// LocalAddr is the source address of every connection (nil: the
	// system's choice), e.g. 127.0.0.2 to count as another client IP.
	LocalAddr net.IP
	// TLS configures https connections (nil: the system's roots).
	TLS *tls.Config
	// WorkerID tells the workers of a multi-host run apart.
	WorkerID int
	// Timeout bounds each request; default DefaultTimeout.
	Timeout time.Duration
	// StdClient sends through Vegeta's attacker and Go's net/http
	// Transport even on plain http targets, where the generator otherwise
	// uses its own engine (see engine; a third less CPU per request on
	// two cores; https always goes through Vegeta and net/http).
	StdClient bool
	// TargetElsewhere says that the target does not run in this process
	// (it is not the embedded emulator): an unlimited run's event loops
	// may then sleep outside the Go scheduler's accounting (see
	// evloop.sleep), which would starve a target that needs the same
	// processors.
	TargetElsewhere bool
	// Results receives every result in Vegeta's gob encoding.
	Results io.Writer
	// Progress, when set, receives a progress line every ProgressEvery
	// (default DefaultProgressEvery).
	Progress      io.Writer
	ProgressEvery time.Duration
	// CleanupTimeout bounds the scenario's cleanup after the run.
	CleanupTimeout time.Duration
	// analyze, when set, is given the run's RunInfo as it starts and
	// returns what takes every result as written to Results (Execute
	// analyzes the run as it goes instead of reading the file back).
	analyze func(RunInfo) func(*vegeta.Result) error
}

func (c *RunConfig) check() error {
	switch {
	case c.Base == nil:
		return errors.New("load: no target")
	case c.Scenario == nil:
		return errors.New("load: no scenario")
	case c.Results == nil:
		return errors.New("load: no results writer")
	case c.Duration <= 0:
		return errors.New("load: duration must be positive")
	case c.Workers < 1 || c.MaxWorkers < c.Workers:
		return fmt.Errorf("load: workers %d, max workers %d: want 1 <= workers <= max workers", c.Workers, c.MaxWorkers)
	case c.Connections < 1:
		return errors.New("load: connections must be at least 1")
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.ProgressEvery <= 0 {
		c.ProgressEvery = DefaultProgressEvery
	}
	if c.CleanupTimeout <= 0 {
		c.CleanupTimeout = DefaultCleanupTimeout
	}
	return nil
}

// attackerOptions are the Vegeta options of a run through net/http
// (https, or StdClient; see ownEngine): HTTP/1.1 with
// keep-alive, at most Connections connections, no proxy, no redirects
// followed (a redirect is a failed request, never a request elsewhere).
func attackerOptions(c RunConfig) []func(*vegeta.Attacker) {
	opts := []func(*vegeta.Attacker){
		vegeta.Workers(c.Workers), vegeta.MaxWorkers(c.MaxWorkers),
		vegeta.Connections(c.Connections), vegeta.MaxConnections(c.Connections),
		vegeta.KeepAlive(true), vegeta.HTTP2(false), vegeta.Redirects(0),
		vegeta.Timeout(c.Timeout), vegeta.MaxBody(maxErrorBody),
		vegeta.Proxy(func(*http.Request) (*url.URL, error) { return nil, nil }),
	}
	if c.LocalAddr != nil {
		opts = append(opts, vegeta.LocalAddr(net.IPAddr{IP: c.LocalAddr}))
	}
	if c.TLS != nil {
		opts = append(opts, vegeta.TLSConfig(c.TLS))
	}
	return opts
}

// cleanupClient is a plain HTTP client from the run's source address.
func cleanupClient(c RunConfig) *http.Client {
	d := &net.Dialer{Timeout: c.Timeout}
	if c.LocalAddr != nil {
		d.LocalAddr = &net.TCPAddr{IP: c.LocalAddr}
	}
	return &http.Client{Timeout: c.Timeout, Transport: &http.Transport{DialContext: d.DialContext, TLSClientConfig: c.TLS},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// Run offers the scenario to the target at the configured pace for the
// configured duration, writes every result to cfg.Results and returns
// what was asked for and sent. Cancelling ctx stops the run early (the
// RunInfo says so). After the attack, a scenario that left objects on the
// target (resting orders) removes them; a failed cleanup is reported in
// the RunInfo, not as an error.
func Run(ctx context.Context, cfg RunConfig) (RunInfo, error) {
	if err := cfg.check(); err != nil {
		return RunInfo{}, err
	}
	attack := fmt.Sprintf("%s/w%d/%s", cfg.Scenario.Name(), cfg.WorkerID, nonce(5))
	info := newRunInfo(cfg, attack)

	var (
		targetErr  error
		targetOnce sync.Once
	)
	confined := Confine(cfg.Base, cfg.Scenario.Targeter())
	tr := func(t *vegeta.Target) error {
		err := confined(t)
		if err != nil {
			targetOnce.Do(func() { targetErr = err })
		}
		return err
	}

	bw := bufio.NewWriterSize(cfg.Results, 1<<16)
	rec := &recorder{enc: newGobResults(bw).Encode, prog: newProgress(cfg.Pacing, cfg.Duration)}
	rec.obs, _ = cfg.Scenario.(Observer)
	if cfg.analyze != nil {
		rec.also = cfg.analyze(info)
	}
	tick := time.NewTicker(cfg.ProgressEvery)
	defer tick.Stop()

	info.Started = time.Now()
	var stop func()
	finished := make(chan struct{})
	if cfg.ownEngine() {
		e := newEngine(cfg, tr, attack, rec.record, rec.obs != nil)
		e.start()
		stop = e.stop
		go func() { e.wait(); close(finished) }()
	} else {
		atk := vegeta.NewAttacker(attackerOptions(cfg)...)
		results := atk.Attack(tr, cfg.Pacing.Pacer(cfg.Duration), cfg.Duration, attack)
		stop = func() { atk.Stop() }
		go func() {
			defer close(finished)
			for r := range results {
				if !rec.record([]vegeta.Result{*r}) {
					atk.Stop() // a run that cannot be recorded is not worth continuing
				}
			}
		}()
	}
	done := ctx.Done()
	for running := true; running; {
		select {
		case <-finished:
			running = false
		case <-tick.C:
			if cfg.Progress != nil {
				fmt.Fprintln(cfg.Progress, rec.line(time.Now()))
			}
		case <-done:
			info.Interrupted = true
			stop()
			done = nil
		}
	}
	prog, encErr := rec.prog, rec.encErr
	info.Ended = time.Now()
	info.Sent = prog.n
	if cfg.Progress != nil {
		fmt.Fprintln(cfg.Progress, prog.line(info.Ended))
	}
	if encErr == nil {
		encErr = bw.Flush()
	}

	if cl, ok := cfg.Scenario.(Cleaner); ok {
		cctx, cancel := context.WithTimeout(context.Background(), cfg.CleanupTimeout)
		c := cleanupClient(cfg)
		rep, err := cl.Cleanup(cctx, c)
		c.CloseIdleConnections()
		cancel()
		info.Cleanup = &rep
		if err != nil {
			info.CleanupError = err.Error()
		}
	}

	switch {
	case targetErr != nil:
		return info, targetErr
	case encErr != nil:
		return info, fmt.Errorf("load: write results: %w", encErr)
	}
	return info, nil
}

// ownEngine tells whether the run goes through the generator's own
// engine (plain http, unless StdClient) rather than Vegeta's attacker.
func (c RunConfig) ownEngine() bool {
	return c.Base != nil && c.Base.Scheme == "http" && !c.StdClient
}

// recorder takes the results of a run, from any goroutine: it shows each
// to the scenario's observer, counts it for the progress line and writes
// it to the results file.
type recorder struct {
	mu     sync.Mutex
	enc    vegeta.Encoder
	obs    Observer
	prog   *progress
	also   func(*vegeta.Result) error // nil: none
	encErr error
}

// record takes a batch of results; it returns false once they can no
// longer be written.
func (rec *recorder) record(rs []vegeta.Result) bool {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	for i := range rs {
		r := &rs[i]
		if rec.obs != nil {
			rec.obs.Observe(r)
		}
		rec.prog.add(r)
		if rec.encErr == nil {
			trim(r)
			rec.encErr = rec.enc.Encode(r)
			if rec.also != nil && rec.encErr == nil {
				// As read back from the file: no monotonic clock reading.
				r.Timestamp = r.Timestamp.Round(0)
				rec.encErr = rec.also(r)
			}
		}
	}
	return rec.encErr == nil
}

// line is the progress line so far.
func (rec *recorder) line(now time.Time) string {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return rec.prog.line(now)
}

// trim drops what a results file need not hold: body and headers of a
// successful response (a failed one keeps them, its body bounded by
// maxErrorBody, for diagnosis).
func trim(r *vegeta.Result) {
	if r.Code >= 200 && r.Code < 400 {
		r.Body, r.Headers = nil, nil
	}
}
