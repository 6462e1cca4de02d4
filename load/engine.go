package load

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// Batching of results: a worker hands its results to the recorder every
// batchSize results, or once the oldest has waited flushEvery, or before
// it sleeps for the pacer; a scenario that observes results gets each one
// at once (its next requests depend on them).
const (
	batchSize  = 64
	flushEvery = 50 * time.Millisecond
)

// engine is the generator's own attacker on plain-http targets, used
// instead of Vegeta's: each worker asks the pacer for its next request
// itself, sends it over a connection it keeps while it has work, reads and
// checks the answer on its own goroutine (see rawConn) and hands its
// results over in batches. Vegeta's attacker passes every request from its pacer to a
// worker and every result back over unbuffered channels, and builds an
// http.Request, a header map and a body copy per request: at max rate on
// two cores those hand-offs and allocations, not the network, capped the
// generator. The results are Vegeta's (same fields, same meaning): the
// results file, the analysis and the merge do not tell the two apart.
type engine struct {
	tr     vegeta.Targeter
	pacer  vegeta.Pacer // nil: as fast as the workers can
	du     time.Duration
	name   string
	origin string // scheme://host; every URL starts with it (see Confine)
	// originPath is origin and "/": what every URL starts with.
	originPath string
	host       string // the Host header
	addr       string // host:port to dial
	pool       *connPool
	timeout    time.Duration
	pacing     Pacing
	// record takes a batch of results (the engine reuses the slice
	// afterwards); it returns false when the run should stop.
	record  func([]vegeta.Result) bool
	observe bool // flush every result at once
	// elsewhere: the target runs in another process (RunConfig.TargetElsewhere).
	elsewhere bool

	began      time.Time
	ctx        context.Context
	cancel     context.CancelFunc
	mu         sync.Mutex // the pacer's count of hits, and the workers
	hits       uint64
	workers    uint64
	maxWorkers uint64
	// seqMu orders the requests as sent: sequence numbers and timestamps
	// rise together, as with Vegeta (its plot needs it). A paced request
	// goes out in the order the pacer gave it (seqTurn), as from Vegeta's
	// one pacer: the schedule lag of request k is then how late request
	// k went out, not a worker's timer firing before another's.
	seqMu   sync.Mutex
	seqTurn *sync.Cond
	seq     uint64
	wg      sync.WaitGroup
	stopped atomic.Bool
	// loops counts the event loops started (see useLoops); loopPolicy
	// says when a busy one splits.
	loops      atomic.Int32
	loopPolicy loopPolicy
}

// newEngine prepares a run of cfg against its plain-http base.
func newEngine(cfg RunConfig, tr vegeta.Targeter, name string, record func([]vegeta.Result) bool, observe bool) *engine {
	d := &net.Dialer{Timeout: cfg.Timeout, KeepAlive: 30 * time.Second}
	if cfg.LocalAddr != nil {
		d.LocalAddr = &net.TCPAddr{IP: cfg.LocalAddr}
	}
	addr := cfg.Base.Host
	if cfg.Base.Port() == "" {
		addr = net.JoinHostPort(cfg.Base.Hostname(), "80")
	}
	e := &engine{tr: tr, du: cfg.Duration, name: name, origin: origin(cfg.Base), host: cfg.Base.Host, addr: addr,
		pool: newConnPool(d, cfg.Connections, cfg.Timeout), timeout: cfg.Timeout, pacing: cfg.Pacing, record: record, observe: observe,
		elsewhere: cfg.TargetElsewhere}
	e.workers, e.maxWorkers = cfg.Workers, cfg.MaxWorkers
	e.originPath = e.origin + "/"
	e.loopPolicy = defaultLoopPolicy()
	e.seqTurn = sync.NewCond(&e.seqMu)
	if cfg.Pacing.IsUnlimited() {
		// Vegeta adds workers whenever all are busy, which at max rate is
		// always: it ends at MaxWorkers. A worker beyond the connection
		// cap could only wait for a connection, so start them all at once.
		e.workers = min(cfg.MaxWorkers, uint64(cfg.Connections))
	} else {
		e.pacer = cfg.Pacing.Pacer(cfg.Duration)
	}
	return e
}

// start begins the attack; wait for its end with wait.
func (e *engine) start() {
	e.ctx, e.cancel = context.WithCancel(context.Background())
	e.began = time.Now()
	if e.useLoops() {
		return
	}
	e.wg.Add(int(e.workers))
	for range e.workers {
		go e.work()
	}
}

// wait returns when every worker has handed over its last result.
func (e *engine) wait() {
	e.wg.Wait()
	e.stop()
	e.pool.closeIdle()
}

// stop ends the attack: no worker starts another request.
func (e *engine) stop() {
	if e.stopped.CompareAndSwap(false, true) {
		e.cancel()
		e.seqMu.Lock()
		e.seqTurn.Broadcast() // a worker waiting for its turn gives up
		e.seqMu.Unlock()
	}
}

// next claims the next request: its number in the pacer's order
// (unlimited runs: 0, no order), how long to wait before sending it (at
// most 0: now). grow is true when it came due before any worker was free
// for it, so that another worker should start. ok is false when the run
// is over (its duration or the pacer's end reached, or stopped).
func (e *engine) next() (turn uint64, wait time.Duration, grow, ok bool) {
	if e.pacer == nil {
		return 0, 0, false, !e.over(time.Since(e.began))
	}
	if e.stopped.Load() {
		return 0, 0, false, false
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	elapsed := time.Since(e.began)
	if e.over(elapsed) {
		return 0, 0, false, false
	}
	wait, stop := e.pacer.Pace(elapsed, e.hits)
	if stop || elapsed+wait > e.du {
		return 0, 0, false, false
	}
	if wait <= 0 && elapsed > e.pacing.ScheduledAt(e.hits, e.du) && e.workers < e.maxWorkers {
		e.workers++
		grow = true
	}
	turn = e.hits
	e.hits++
	return turn, wait, grow, true
}

// over tells whether the run is over elapsed after it began: stopped,
// or past its duration.
func (e *engine) over(elapsed time.Duration) bool { return e.stopped.Load() || elapsed > e.du }

// work is one worker: it claims requests, waits for each one's time,
// sends it and records the answer, until the run is over.
func (e *engine) work() {
	defer e.wg.Done()
	w := worker{e: e, batch: make([]vegeta.Result, 0, batchSize)}
	defer w.finish()
	var timer *time.Timer
	for {
		turn, wait, grow, ok := e.next()
		if !ok {
			return
		}
		if grow {
			e.wg.Add(1)
			go e.work()
		}
		if wait > 0 {
			// Idle until then: hand over what is pending and let another
			// worker use the connection.
			w.flush()
			w.release()
			if timer == nil {
				timer = time.NewTimer(wait)
			} else {
				timer.Reset(wait)
			}
			select {
			case <-timer.C:
			case <-e.ctx.Done():
				timer.Stop()
				return
			}
		}
		if !w.hit(turn) {
			return
		}
		last := &w.batch[len(w.batch)-1] // no clock read: it ended Latency after its Timestamp
		if len(w.batch) == cap(w.batch) || e.observe || last.Timestamp.Add(last.Latency).Sub(w.batch[0].Timestamp) > flushEvery {
			w.flush()
		}
	}
}

// worker is what one worker goroutine keeps between requests.
type worker struct {
	e     *engine
	rc    *rawConn // held while the worker has requests to send
	tgt   vegeta.Target
	batch []vegeta.Result
}

// hit sends the pacer's request number turn (unlimited: the next one) and
// appends its result to the batch; false when the run stopped first.
func (w *worker) hit(turn uint64) bool {
	e := w.e
	e.seqMu.Lock()
	if e.pacer != nil {
		for e.seq != turn && !e.stopped.Load() {
			e.seqTurn.Wait()
		}
		if e.seq != turn {
			e.seqMu.Unlock()
			return false
		}
	}
	// As Vegeta does: a timestamp on the run's monotonic clock.
	w.batch = append(w.batch, vegeta.Result{Attack: e.name, Seq: e.seq, Timestamp: e.began.Add(time.Since(e.began))})
	e.seq++
	if e.pacer != nil {
		e.seqTurn.Broadcast()
	}
	e.seqMu.Unlock()
	r := &w.batch[len(w.batch)-1]
	err := w.send(r)
	r.Latency = time.Since(r.Timestamp)
	if err != nil {
		r.Code = 0
		r.Error = err.Error()
	}
	return true
}

// send builds request r, sends it and reads its answer into r.
func (w *worker) send(r *vegeta.Result) error {
	e := w.e
	w.tgt = vegeta.Target{}
	t := &w.tgt
	if err := e.tr(t); err != nil {
		e.stop() // as Vegeta does: a targeter that fails ends the attack
		return err
	}
	r.Method, r.URL = t.Method, t.URL
	if !strings.HasPrefix(t.URL, e.originPath) { // Confine checks this first; never send elsewhere
		return &url.Error{Op: opName(t.Method), URL: t.URL, Err: errors.New("not on the target")}
	}
	if t.Body != nil {
		r.BytesOut = uint64(len(t.Body))
	}
	if w.rc == nil {
		rc, err := e.pool.conn(e.ctx, e.addr)
		if err != nil {
			return &url.Error{Op: opName(t.Method), URL: t.URL, Err: err}
		}
		w.rc = rc
	}
	rc := w.rc
	if e.timeout > 0 {
		rc.renewDeadline(r.Timestamp.Add(e.timeout), e.timeout)
	}
	b := e.appendRequest(rc.out[:0], t)
	rc.out, rc.sent = b, 0
	// The request goes out with the first read of its answer; unless
	// something is left over from the last answer, which readAnswer would
	// take for this one.
	if rc.br.Buffered() > 0 || rc.raw == nil {
		if err := rc.flush(); err != nil {
			w.drop()
			return &url.Error{Op: opName(t.Method), URL: t.URL, Err: err}
		}
	}
	a, err := readAnswer(rc.br, t.Method, r)
	if err == nil && e.timeout > 0 && time.Since(r.Timestamp) > e.timeout {
		// In time for the connection's deadline, too late for its own.
		r.Code, r.Body, r.Headers, r.BytesIn = 0, nil, nil, 0
		err = rc.timedOut()
	}
	if err != nil {
		w.drop()
		return &url.Error{Op: opName(t.Method), URL: t.URL, Err: err}
	}
	if a.close {
		w.drop()
	}
	if a.location != "" {
		// A redirect is a failed request, never a request elsewhere (as
		// Vegeta's client with Redirects(0) reports it).
		r.Code, r.Body, r.Headers, r.BytesIn = 0, nil, nil, 0
		return &url.Error{Op: opName(t.Method), URL: a.location, Err: errors.New("stopped after 0 redirects")}
	}
	return nil
}

// appendRequest appends request t (on the target: see send) to b.
func (e *engine) appendRequest(b []byte, t *vegeta.Target) []byte {
	b = append(append(b, t.Method...), ' ')
	uri := t.URL[len(e.origin):]
	if i := strings.IndexByte(uri, '#'); i >= 0 {
		uri = uri[:i] // a fragment is never sent
	}
	b = append(append(b, uri...), " HTTP/1.1\r\nHost: "...)
	b = append(append(b, e.host...), "\r\n"...)
	for k, vs := range t.Header {
		for _, v := range vs {
			b = append(append(append(append(b, k...), ": "...), v...), "\r\n"...)
		}
	}
	if len(t.Body) > 0 || t.Method == http.MethodPost || t.Method == http.MethodPut || t.Method == http.MethodPatch {
		b = append(strconv.AppendInt(append(b, "Content-Length: "...), int64(len(t.Body)), 10), "\r\n"...)
	}
	return append(append(b, "\r\n"...), t.Body...)
}

// opName is net/http's name of a method in errors: Get, Post, ...
func opName(method string) string {
	if method == "" {
		return "Get"
	}
	return method[:1] + strings.ToLower(method[1:])
}

// release gives the worker's connection back to the pool.
func (w *worker) release() {
	if w.rc != nil {
		w.e.pool.put(w.rc)
		w.rc = nil
	}
}

// drop closes the worker's connection after a failure.
func (w *worker) drop() {
	if w.rc != nil {
		w.e.pool.drop(w.rc)
		w.rc = nil
	}
}

// flush hands the batch over to the recorder.
func (w *worker) flush() {
	if len(w.batch) == 0 {
		return
	}
	if !w.e.record(w.batch) {
		w.e.stop()
	}
	clear(w.batch) // drop references to bodies and headers
	w.batch = w.batch[:0]
}

// finish is the worker's end: its last results, its connection back.
func (w *worker) finish() {
	w.flush()
	w.release()
}
