// Package browser opens a report.html in headless Chromium and reads back
// what a person sees there: the outcome counts, the rule rows by verdict,
// whether a failed rule's transcript shows after a click, whether anything
// is clipped or scrolls sideways at a given width, whether the page asked
// the network for anything; and it saves a screenshot beside the report.
package browser

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// ErrNoChromium is returned when no Chromium binary is found.
var ErrNoChromium = errors.New("no chromium binary (install Debian's chromium package, or set CONFORM_CHROMIUM)")

// Find returns the Chromium binary: $CONFORM_CHROMIUM, else chromium or
// chromium-browser on PATH, else /usr/bin/chromium.
func Find(getenv func(string) string) (string, error) {
	if p := getenv("CONFORM_CHROMIUM"); p != "" {
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium", nil
	}
	return "", ErrNoChromium
}

// Seen is what the page showed.
type Seen struct {
	// RuleCounts and SpecCounts are the figures of the Outcomes section, by
	// verdict and by outcome.
	RuleCounts map[string]int `json:"rule_counts"`
	SpecCounts map[string]int `json:"spec_counts"`
	// Rows counts the visible rule rows by verdict.
	Rows map[string]int `json:"rows"`
	// TranscriptHidden and TranscriptShown say whether the first failed
	// rule's transcript was hidden before a click on it and shown after
	// (both false when no rule failed); TranscriptText is what it showed.
	TranscriptHidden bool   `json:"transcript_hidden"`
	TranscriptShown  bool   `json:"transcript_shown"`
	TranscriptText   string `json:"transcript_text,omitempty"`
	// Clipped lists elements that run past the window's right edge, clip
	// their content or scroll sideways; empty when nothing does.
	Clipped []string `json:"clipped,omitempty"`
	// FilteredRows is the number of rows visible after typing
	// FilterProbe into the filter box.
	FilteredRows int `json:"filtered_rows"`
	// Requests are the URLs the page asked for other than itself.
	Requests []string `json:"requests,omitempty"`
}

// Options tune Look.
type Options struct {
	// Chromium is the binary (see Find).
	Chromium string
	// Width and Height of the window, default 1280×900.
	Width, Height int
	// Screenshot, when set, receives a PNG of the first screen.
	Screenshot string
	// FilterProbe is typed into the filter box (empty: the first rule ID).
	FilterProbe string
}

// Look opens the report at path in headless Chromium with a fresh profile
// and reads what it shows.
func Look(ctx context.Context, path string, o Options) (*Seen, error) {
	if o.Width == 0 {
		o.Width, o.Height = 1280, 900
	}
	bctx, done, err := start(ctx, o)
	if err != nil {
		return nil, err
	}
	defer done()

	self := (&url.URL{Scheme: "file", Path: path}).String()
	var mu sync.Mutex
	var requests []string
	chromedp.ListenTarget(bctx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok && e.Request.URL != self && !strings.HasPrefix(e.Request.URL, "data:") {
			mu.Lock()
			requests = append(requests, e.Request.URL)
			mu.Unlock()
		}
	})

	seen := &Seen{}
	var counts struct {
		Rules, Specs, Rows map[string]int
		Hidden             bool
		HasFailed          bool
		FirstID            string
	}
	var png []byte
	actions := []chromedp.Action{
		network.Enable(),
		chromedp.EmulateViewport(int64(o.Width), int64(o.Height)),
		chromedp.Navigate(self),
		chromedp.WaitReady("#filter", chromedp.ByQuery),
		chromedp.Evaluate(countsJS, &counts),
		chromedp.Evaluate(clippedJS, &seen.Clipped),
	}
	if err := chromedp.Run(bctx, actions...); err != nil {
		return nil, fmt.Errorf("browser: %w", err)
	}
	seen.RuleCounts, seen.SpecCounts, seen.Rows = counts.Rules, counts.Specs, counts.Rows
	if counts.HasFailed {
		seen.TranscriptHidden = counts.Hidden
		err := chromedp.Run(bctx,
			chromedp.Click(`tr.rule details.transcript summary`, chromedp.ByQuery),
			chromedp.Evaluate(`document.querySelector('tr.rule details.transcript pre').checkVisibility({visibilityProperty: true})`, &seen.TranscriptShown),
			chromedp.Text(`tr.rule details.transcript pre`, &seen.TranscriptText, chromedp.ByQuery),
		)
		if err != nil {
			return nil, fmt.Errorf("browser: click a transcript: %w", err)
		}
	}
	if o.Screenshot != "" {
		// The first screen, as a person opening the report sees it: a
		// full-page capture of every rule would weigh megabytes.
		if err := chromedp.Run(bctx, chromedp.CaptureScreenshot(&png)); err != nil {
			return nil, fmt.Errorf("browser: screenshot: %w", err)
		}
		if err := os.WriteFile(o.Screenshot, png, 0o644); err != nil {
			return nil, fmt.Errorf("browser: screenshot: %w", err)
		}
	}
	probe := o.FilterProbe
	if probe == "" {
		probe = counts.FirstID
	}
	if probe != "" {
		err := chromedp.Run(bctx,
			chromedp.SendKeys("#filter", probe, chromedp.ByQuery),
			chromedp.Sleep(50*time.Millisecond), // the input handler runs on the event; let it land
			chromedp.Evaluate(`document.querySelectorAll('tr.rule:not(.hidden)').length`, &seen.FilteredRows),
		)
		if err != nil {
			return nil, fmt.Errorf("browser: filter: %w", err)
		}
	}
	mu.Lock()
	seen.Requests = requests
	mu.Unlock()
	return seen, nil
}

// start launches Chromium with a fresh profile; done stops it and removes
// the profile. A Chromium that exits before its DevTools endpoint answers
// (it happens on a loaded machine) is started again, up to three times.
func start(ctx context.Context, o Options) (context.Context, func(), error) {
	var err error
	for range 3 {
		var bctx context.Context
		var done func()
		if bctx, done, err = launch(ctx, o); err == nil {
			return bctx, done, nil
		}
		if ctx.Err() != nil {
			break
		}
	}
	return nil, nil, err
}

func launch(ctx context.Context, o Options) (context.Context, func(), error) {
	root, err := os.MkdirTemp("", "conform-chromium-")
	if err != nil {
		return nil, nil, fmt.Errorf("browser: profile: %w", err)
	}
	profile := filepath.Join(root, "profile")
	if err := os.Mkdir(profile, 0o700); err != nil {
		os.RemoveAll(root)
		return nil, nil, fmt.Errorf("browser: profile: %w", err)
	}
	var cmd atomic.Pointer[exec.Cmd] // the browser's, which leads its process group
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(o.Chromium),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("no-default-browser-check", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(o.Width, o.Height),
		chromedp.ModifyCmdFunc(func(c *exec.Cmd) {
			ownGroup(c)
			cmd.Store(c)
		}),
	}
	if len(root)+len(singletonSuffix) <= maxSocketPath {
		// Chromium's TMPDIR, where it makes its singleton socket's
		// directory, inside the profile's: removed with it even when
		// Chromium died before it could clean up.
		opts = append(opts, chromedp.Env("TMPDIR="+root))
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	bctx, cancelB := chromedp.NewContext(alloc)
	done := func() {
		cancelB()
		cancelAlloc() // waits for the browser process to exit
		if c := cmd.Load(); c != nil && c.Process != nil {
			stopGroup(c.Process.Pid) // its helpers, which chromedp does not wait for
		}
		removeProfile(root, profile)
	}
	if err := chromedp.Run(bctx); err != nil { // starts the browser
		done()
		return nil, nil, fmt.Errorf("browser: start %s: %w", o.Chromium, err)
	}
	return bctx, done, nil
}

// A Unix socket's path is at most 107 bytes; Chromium's singleton socket is
// $TMPDIR/org.chromium.Chromium.XXXXXX/SingletonSocket.
const (
	maxSocketPath   = 107
	singletonSuffix = "/org.chromium.Chromium.XXXXXX/SingletonSocket"
)

// removeProfile removes the browser's directory (root, holding profile),
// and the directory of its singleton socket when Chromium made that in the
// system's temporary directory: it links it from the profile, and leaves it
// behind when it is stopped by a signal (as chromedp stops it). Chromium's
// helpers can still be writing to the profile for a moment, failing one
// RemoveAll: it is tried again a few times.
func removeProfile(root, profile string) {
	if sock, err := os.Readlink(filepath.Join(profile, "SingletonSocket")); err == nil && filepath.IsAbs(sock) {
		if dir := filepath.Dir(sock); !strings.HasPrefix(dir, root+string(filepath.Separator)) {
			for _, name := range []string{"SingletonSocket", "SingletonCookie"} {
				os.Remove(filepath.Join(dir, name))
			}
			os.Remove(dir) // only when it is empty: it may be something else's
		}
	}
	for i := range 10 {
		if err := os.RemoveAll(root); err == nil {
			return
		}
		time.Sleep(time.Duration(i+1) * 20 * time.Millisecond)
	}
}

// Layout opens any page at o.Width and lists what a person could not read:
// the clipping of Look, and same-origin frames whose document is taller or
// wider than the frame.
func Layout(ctx context.Context, path string, o Options) ([]string, error) {
	if o.Width == 0 {
		o.Width, o.Height = 1280, 900
	}
	bctx, done, err := start(ctx, o)
	if err != nil {
		return nil, err
	}
	defer done()
	var clipped, frames []string
	err = chromedp.Run(bctx,
		chromedp.EmulateViewport(int64(o.Width), int64(o.Height)),
		chromedp.Navigate((&url.URL{Scheme: "file", Path: path}).String()),
		chromedp.WaitReady("body", chromedp.ByQuery),
		chromedp.Sleep(200*time.Millisecond), // scripts inside frames draw after load
		chromedp.Evaluate(clippedJS, &clipped),
		chromedp.Evaluate(framesJS, &frames),
	)
	if err != nil {
		return nil, fmt.Errorf("browser: %w", err)
	}
	return append(clipped, frames...), nil
}

// framesJS lists frames that cut their document off.
const framesJS = `(() => {
  const bad = [];
  document.querySelectorAll('iframe').forEach((f, i) => {
    const d = f.contentDocument;
    if (!d || !d.documentElement) return;
    const h = d.documentElement.scrollHeight, w = d.documentElement.scrollWidth;
    if (h > f.clientHeight + 1) bad.push('iframe ' + (f.title || i) + ' cuts its document: ' + h + 'px tall in ' + f.clientHeight + 'px');
    if (w > f.clientWidth + 1) bad.push('iframe ' + (f.title || i) + ' cuts its document: ' + w + 'px wide in ' + f.clientWidth + 'px');
  });
  return bad;
})()`

// countsJS reads the Outcomes figures and the visible rows by verdict.
const countsJS = `(() => {
  const num = el => parseInt(el.querySelector('.n').textContent, 10);
  const out = {Rules: {}, Specs: {}, Rows: {}, Hidden: false, HasFailed: false, FirstID: ''};
  document.querySelectorAll('#rule-counts [data-verdict]').forEach(el => out.Rules[el.dataset.verdict] = num(el));
  document.querySelectorAll('#spec-counts [data-outcome]').forEach(el => out.Specs[el.dataset.outcome] = num(el));
  document.querySelectorAll('tr.rule').forEach(tr => {
    if (tr.checkVisibility({visibilityProperty: true})) out.Rows[tr.dataset.verdict] = (out.Rows[tr.dataset.verdict] || 0) + 1;
  });
  const first = document.querySelector('tr.rule');
  if (first) out.FirstID = first.id;
  const pre = document.querySelector('tr.rule details.transcript pre');
  // checkVisibility, not offsetHeight: a closed <details> hides its content
  // with content-visibility, which keeps a layout box.
  if (pre) { out.HasFailed = true; out.Hidden = !pre.checkVisibility({visibilityProperty: true}); }
  return out;
})()`

// clippedJS lists what a person could not read at this width: the page
// scrolling sideways, elements past the right edge, and boxes whose
// content is wider than they show.
const clippedJS = `(() => {
  const W = document.documentElement.clientWidth, bad = [];
  const name = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().replace(/\s+/g, '.') : '');
  if (document.documentElement.scrollWidth > W) bad.push('the page scrolls sideways: ' + document.documentElement.scrollWidth + 'px in ' + W + 'px');
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.right > W + 1) bad.push(name(el) + ' ends at ' + Math.round(r.right) + 'px, past ' + W + 'px');
    if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0 && getComputedStyle(el).overflowX !== 'visible') bad.push(name(el) + ' clips its content: ' + el.scrollWidth + 'px in ' + el.clientWidth + 'px');
    if (bad.length >= 20) break;
  }
  return bad;
})()`
