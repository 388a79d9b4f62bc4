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
		// Terraform's documented examples (developer.hashicorp.com,
		// language/functions/<name>) and its errors.
		{`cidrsubnet("172.16.0.0/12", 4, 2)`, `"172.18.0.0/16"`},
		{`cidrsubnet("10.1.2.0/24", 4, 15)`, `"10.1.2.240/28"`},
		{`cidrsubnet("fd00:fd12:3456:7890::/56", 16, 162)`, `"fd00:fd12:3456:7800:a200::/72"`},
		{`cidrsubnet("192.168.2.0/20", 4, 6)`, `"192.168.6.0/24"`},
		{`cidrsubnet("fe80::/48", 33, 6)`, `"fe80::3:0:0:0/81"`},
		{`cidrsubnet("::ffff:192.168.0.0/112", 8, 6)`, `"192.168.6.0/24"`},
		{`cidrsubnet("010.001.0.0/24", 4, 1)`, `"10.1.0.16/28"`},
		{`cidrsubnet("10.0.0.0/8", 0, 0)`, `"10.0.0.0/8"`},
		{`cidrsubnet("192.168.0.0/30", 4, 6)`, `error: Call to function "cidrsubnet" failed: insufficient address space to extend prefix of 30 by 4.`},
		{`cidrsubnet("10.0.0.0/24", 2, 4)`, `error: Call to function "cidrsubnet" failed: prefix extension of 2 does not accommodate a subnet numbered 4.`},
		{`cidrsubnet("10.0.0.0/24", 2, -1)`, `error: Call to function "cidrsubnet" failed: prefix extension of 2 does not accommodate a subnet numbered -1.`},
		{`cidrsubnet("10.0.0.0/24", 1.5, 0)`, `error: Invalid value for "newbits" parameter: newbits must be a whole number.`},
		{`cidrsubnet("192.168.0.0/168", 2, 16)`, `error: Invalid value for "prefix" parameter: "192.168.0.0/168" is not a prefix such as "10.0.0.0/24" or "fd00::/64".`},
		{`cidrsubnet("10.256.0.0/8", 4, 6)`, `error: Invalid value for "prefix" parameter: "10.256.0.0/8" is not a prefix such as "10.0.0.0/24" or "fd00::/64".`},
		{`cidrsubnet("not-a-cidr\u202e", 4, 6)`, `error: Invalid value for "prefix" parameter: "not-a-cidr\u202e" is not a prefix such as "10.0.0.0/24" or "fd00::/64".`},
		{`cidrsubnets("10.1.0.0/16", 4, 4, 8, 4)`, `["10.1.0.0/20","10.1.16.0/20","10.1.32.0/24","10.1.48.0/20"]`},
		{`cidrsubnets("fd00:fe12:3456:7890::/56", 16, 16, 16, 32)`, `["fd00:fe12:3456:7800::/72","fd00:fe12:3456:7800:100::/72","fd00:fe12:3456:7800:200::/72","fd00:fe12:3456:7800:300::/88"]`},
		{`cidrsubnets("10.0.0.0/8")`, `[]`},
		{`cidrsubnets("10.0.0.0/30", 1, 1, 1)`, `error: Invalid value for "newbits" parameter: not enough remaining address space for a subnet with a prefix of 31 bits after 10.0.0.2/31.`},
		{`cidrsubnets("10.0.0.0/8", 0)`, `error: Invalid value for "newbits" parameter: must extend prefix by at least one bit.`},
		{`cidrsubnets("fd00::/8", 33)`, `error: Invalid value for "newbits" parameter: may not extend prefix by more than 32 bits.`},
		{`cidrsubnets("10.0.0.0/30", 3)`, `error: Invalid value for "newbits" parameter: would extend prefix to 33 bits, which is too long for an IPv4 address.`},
		{`cidrnetmask("172.16.0.0/12")`, `"255.240.0.0"`},
		{`cidrnetmask("192.168.1.0/32")`, `"255.255.255.255"`},
		{`cidrnetmask("0.0.0.0/0")`, `"0.0.0.0"`},
		{`cidrnetmask("010.001.0.0/24")`, `"255.255.255.0"`},
		{`cidrnetmask("1::/64")`, `error: Invalid value for "prefix" parameter: IPv6 addresses cannot have a netmask: "1::/64".`},
		{`cidrhost("10.12.112.0/20", 16)`, `"10.12.112.16"`},
		{`cidrhost("10.12.112.0/20", 268)`, `"10.12.113.12"`},
		{`cidrhost("fd00:fd12:3456:7890:00a2::/72", 34)`, `"fd00:fd12:3456:7890::22"`},
		{`cidrhost("192.168.1.0/24", -5)`, `"192.168.1.251"`},
		{`cidrhost("010.001.0.0/24", 6)`, `"10.1.0.6"`},
		{`cidrhost("192.168.1.0/30", 255)`, `error: Invalid value for "hostnum" parameter: prefix 192.168.1.0/30 has 4 addresses; host number must be from -4 to 3.`},
		{`sum([10, 13, 6, 4.5])`, `33.5`},
		{`sum(toset([1, 2]))`, `3`},
		{`sum(["1", 2])`, `3`},
		{`sum([])`, `error: Invalid value for "list" parameter: cannot sum an empty list.`},
		{`sum(["a"])`, `error: Invalid value for "list" parameter: argument must be list, set, or tuple of number values.`},
		{`sum([1, null])`, `error: Invalid value for "list" parameter: argument must be list, set, or tuple of number values.`},
		{`sum({a = 1})`, `error: Invalid value for "list" parameter: argument must be list, set, or tuple. Received object.`},
		{`alltrue(["true", true])`, `true`},
		{`alltrue([true, false])`, `false`},
		{`alltrue([])`, `true`},
		{`alltrue([true, null])`, `false`},
		{`anytrue(["true"])`, `true`},
		{`anytrue([true, false])`, `true`},
		{`anytrue([])`, `false`},
		{`anytrue([null, false])`, `false`},
		{`alltrue(["yes"])`, `error: Invalid value for "list" parameter: a bool is required.`},
		{`one([])`, `null`},
		{`one(["hello"])`, `"hello"`},
		{`one(toset([]))`, `null`},
		{`one(toset(["hello"]))`, `"hello"`},
		{`one(tolist(["a"]))`, `"a"`},
		{`one(["hello", "goodbye"])`, `error: Invalid value for "list" parameter: must be a list, set, or tuple value with either zero or one elements.`},
		{`one(tolist(["hello", "goodbye"]))`, `error: Invalid value for "list" parameter: must be a list, set, or tuple value with either zero or one elements.`},
		{`one("a")`, `error: Invalid value for "list" parameter: must be a list, set, or tuple value with either zero or one elements.`},
		{`startswith("hello world", "hello")`, `true`},
		{`startswith("hello world", "world")`, `false`},
		{`endswith("hello world", "world")`, `true`},
		{`endswith("hello world", "hello")`, `false`},
		{`strcontains("hello world", "wor")`, `true`},
		{`strcontains("hello world", "wod")`, `false`},
		{`startswith(1, "1")`, `true`},
		{`endswith([], "x")`, `error: Invalid value for "str" parameter: string required, but have tuple.`},
		{`strrev("hello")`, `"olleh"`},
		{`tobool("true")`, `true`},
		{`tobool(null)`, `null`},
		{`tobool("no")`, `error: Invalid value for "v" parameter: cannot convert "no" to bool; only the strings "true" or "false" are allowed.`},
		{`transpose({"a" = ["1", "2"], "b" = ["2", "3"]})`, `{"1":["a"],"2":["a","b"],"3":["b"]}`},
		{`transpose({})`, `{}`},
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
