package dsl

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
)

// Format returns src in canonical HCL layout (indentation, aligned
// equals signs; comments kept). Input that does not parse is returned as
// errors and never reformatted, because hclwrite would pass it through
// unchanged and hide the mistake.
func Format(src []byte, filename string) ([]byte, hcl.Diagnostics) {
	if f, diags := hclsyntax.ParseConfig(src, filename, hcl.InitialPos); diags.HasErrors() {
		return nil, explainBlockLabels(diags, map[string]*hcl.File{filename: f})
	}
	return hclwrite.Format(src), nil
}
