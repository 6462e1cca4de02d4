package framework

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conform-harness/conform/reporters/ginkgojson"
)

func TestWriteSelectedReport(t *testing.T) {
	it := func(text string, labels ...string) types.SpecReport {
		return types.SpecReport{LeafNodeType: types.NodeTypeIt, LeafNodeText: text, LeafNodeLabels: labels}
	}
	specs := types.SpecReports{
		{LeafNodeType: types.NodeTypeSynchronizedBeforeSuite},
		it("a", "rule:V3-A"), it("b", "rule:V3-B"), it("ab", "rule:V3-B", "rule:V3-A"), it("none"),
	}
	for _, c := range []struct {
		filter string
		want   []string
	}{
		{"rule:V3-A", []string{"", "a", "ab"}},
		{"rule:V3-A || rule:V3-B", []string{"", "a", "b", "ab"}},
		{"", []string{"", "a", "b", "ab", "none"}},
	} {
		path := filepath.Join(t.TempDir(), "r.json")
		r := types.Report{SuiteConfig: types.SuiteConfig{LabelFilter: c.filter}, SpecReports: specs}
		if err := WriteSelectedReport(path, r); err != nil {
			t.Fatal(err)
		}
		got, err := ginkgojson.Read(path)
		if err != nil {
			t.Fatal(err)
		}
		var texts []string
		for _, s := range got[0].SpecReports {
			texts = append(texts, s.LeafNodeText)
		}
		if !slices.Equal(texts, c.want) {
			t.Errorf("filter %q: kept %q, want %q", c.filter, texts, c.want)
		}
	}
	if err := WriteSelectedReport(filepath.Join(t.TempDir(), "r.json"), types.Report{SuiteConfig: types.SuiteConfig{LabelFilter: "a &&"}}); err == nil {
		t.Error("a filter that does not parse: no error")
	}
}
