package target

import (
	"context"
	"encoding/pem"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// caFile writes the certificate of a TLS test server as a PEM file.
func caFile(t *testing.T, srv *httptest.Server) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ca.pem")
	b := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// tlsServer serves h over TLS with httptest's certificate (example.com,
// *.example.com, 127.0.0.1, ::1), quiet about the handshakes the tests fail.
func tlsServer(t *testing.T, h http.Handler) *httptest.Server {
	t.Helper()
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv
}

func TestCheckTLS(t *testing.T) {
	srv := tlsServer(t, http.NotFoundHandler())
	plain := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(plain.Close)
	trusted, err := (&Config{CAFile: caFile(t, srv)}).TLS()
	if err != nil {
		t.Fatal(err)
	}
	port := strings.TrimPrefix(srv.URL, "https://127.0.0.1")
	cases := []struct {
		name, url string
		trust     bool
		want      string // "" for no error; else every part of the one line
	}{
		{"trusted CA", srv.URL, true, ""},
		{"trusted CA, wss", "wss://127.0.0.1" + port, true, ""},
		{"plain http is not checked", plain.URL, false, ""},
		{"unknown authority", srv.URL, false, "signed by an authority this machine does not trust|--ca-file|ca_file"},
		{"wrong host", "https://localhost" + port, true, "certificate is for example.com|not localhost|aim the target at a host the certificate names"},
		{"not TLS", "https://" + strings.TrimPrefix(plain.URL, "http://"), false, "does not speak TLS"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var conf = trusted
			if !tc.trust {
				conf = nil
			}
			err := CheckTLS(context.Background(), tc.url, conf, nil)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("want no error, got %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("want an error saying %q, got none", tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("not one line: %q", err)
			}
			for _, part := range strings.Split(tc.want, "|") {
				if !strings.Contains(err.Error(), part) {
					t.Errorf("error %q does not say %q", err, part)
				}
			}
		})
	}
}

// Resolve stops at an untrusted certificate with CheckTLS's line, and with
// ca_file it goes on to the preflight over TLS.
func TestResolveTLS(t *testing.T) {
	srv := tlsServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"BTC":{"full_name":"Bitcoin","payin_enabled":true}}`))
	}))
	c := Config{REST: srv.URL}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if _, err := Resolve(context.Background(), c, nil); err == nil || !strings.Contains(err.Error(), "--ca-file") {
		t.Errorf("untrusted: %v, want the --ca-file line", err)
	}
	c.CAFile = caFile(t, srv)
	if _, err := Resolve(context.Background(), c, nil); err != nil {
		t.Errorf("with ca_file: %v", err)
	}
	if err := Preflight(context.Background(), srv.URL, PreflightTimeout, nil); err == nil || !strings.Contains(err.Error(), "--ca-file") {
		t.Errorf("preflight without the CA: %v, want the --ca-file line", err)
	}
}

func TestCAFileConfig(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "not.pem"), []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]Config{
		"missing": {REST: "https://x.example", CAFile: filepath.Join(dir, "absent.pem")},
		"not PEM": {REST: "https://x.example", CAFile: filepath.Join(dir, "not.pem")},
	} {
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "ca_file") {
			t.Errorf("%s: %v, want a ca_file error", name, err)
		}
	}
	// A relative ca_file is read beside the config file, wherever the run starts.
	cfg := filepath.Join(dir, "target.json")
	if err := os.WriteFile(cfg, []byte(`{"rest":"https://x.example","ca_file":"ca.pem"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Load(cfg, func(string) string { return "" })
	if err != nil || c.CAFile != filepath.Join(dir, "ca.pem") {
		t.Errorf("Load: ca_file %q, %v; want %q", c.CAFile, err, filepath.Join(dir, "ca.pem"))
	}
	c, _ = Load(cfg, func(k string) string { return map[string]string{"CONFORM_CA_FILE": "/elsewhere/ca.pem"}[k] })
	if c.CAFile != "/elsewhere/ca.pem" {
		t.Errorf("CONFORM_CA_FILE did not override: %q", c.CAFile)
	}
}
