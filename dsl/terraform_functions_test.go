package dsl

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// TestTerraformFunctions checks the functions whose meaning is
// Terraform's and not go-cty's standard library's: each expression's
// value as Terraform gives it, or its error.
func TestTerraformFunctions(t *testing.T) {
	tests := []struct{ expr, want string }{
		{`index([0, 2, 4, 6, 8, 10], 2)`, `1`},
		{`index(["a", "b"], "b")`, `1`},
		{`index(tolist(["x", "y", "x"]), "x")`, `0`},
		{`index(["a", "b"], "c")`, `error: Invalid value for "value" parameter: item not found.`},
		{`index([], "c")`, `error: Invalid value for "list" parameter: cannot search an empty list.`},
		{`index({a = 1}, 1)`, `error: Invalid value for "list" parameter: index takes a list or tuple, not object.`},
		{`length("gpu01")`, `5`},
		{`length({a = 1, b = 2})`, `2`},
		{`length(["a", 1])`, `2`},
		{`length(3)`, `error: Invalid value for "value" parameter: length takes a string, a list, a set, a map, a tuple or an object, not number.`},
		{`lookup({a = "x"}, "a")`, `"x"`},
		{`lookup(tomap({a = 3}), "b", 7)`, `7`},
		{`lookup({a = "x"}, "b")`, `error: Invalid value for "inputMap" parameter: the object has no attribute "b".`},
		{`lookup(tomap({a = "x"}), "b")`, `error: Invalid value for "key" parameter: lookup failed to find key "b".`},
		{`coalesce("", "b")`, `"b"`},
		{`coalesce(null, 2)`, `2`},
		{`replace("swp12s3", "/s[0-9]+$/", "")`, `"swp12"`},
		{`replace("gpu-01", "/([a-z]+)-([0-9]+)/", "$2$1")`, `"01gpu"`},
		{`replace("a.b", ".", "-")`, `"a-b"`},
		{`replace("a", "/(/", "")`, "error: Invalid value for \"substr\" parameter: not a regular expression: error parsing regexp: missing closing ): `(`."},
		{`element(["a", "b", "c"], 4)`, `"b"`},
		{`contains(["a", "b"], "b")`, `true`},
		{`flatten([["a"], [["b"]], []])`, `["a","b"]`},
	}
	ctx := &hcl.EvalContext{Functions: Functions()}
	for _, tc := range tests {
		t.Run(tc.expr, func(t *testing.T) {
			e, diags := hclsyntax.ParseExpression([]byte(tc.expr), "test.hcl", hcl.InitialPos)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			v, diags := e.Value(ctx)
			got := ""
			if diags.HasErrors() {
				got = "error: " + diags[0].Detail
			} else {
				got = ctyText(v)
			}
			if got != tc.want {
				t.Errorf("%s\n got %s\nwant %s", tc.expr, got, tc.want)
			}
		})
	}
}

// ctyText writes a value as JSON.
func ctyText(v cty.Value) string {
	b, err := ctyjson.Marshal(v, v.Type())
	if err != nil {
		return err.Error()
	}
	return string(b)
}
