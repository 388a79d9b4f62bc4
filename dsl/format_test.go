package dsl

import (
	"strings"
	"testing"
)

func TestFormat(t *testing.T) {
	tests := []struct {
		name, src, want, err string
	}{
		{
			name: "aligns and indents, keeps comments",
			src:  "switch \"s\" {\n# the platform\nplatform = \"eos\"\n    model=\"x\"\n}\n",
			want: "switch \"s\" {\n  # the platform\n  platform = \"eos\"\n  model    = \"x\"\n}\n",
		},
		{
			name: "canonical input is unchanged",
			src:  "fabric \"f\" {}\n",
			want: "fabric \"f\" {}\n",
		},
		{
			name: "broken input is an error, not reformatted",
			src:  "switch \"s\" {\n  platform = \n",
			err:  "Invalid expression",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, diags := Format([]byte(tc.src), "f.hcl")
			if tc.err != "" {
				if !diags.HasErrors() || !strings.Contains(diags.Error(), tc.err) || got != nil {
					t.Errorf("Format = %q, %v; want no output and an error containing %q", got, diags, tc.err)
				}
				return
			}
			if diags.HasErrors() || string(got) != tc.want {
				t.Errorf("Format = %q, %v; want %q", got, diags, tc.want)
			}
		})
	}
}
