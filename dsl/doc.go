// Package dsl is fabricc's language: the HCL schema of a fabric, decoding
// of a file or a folder of .hcl files (variables, locals, functions and
// dynamic blocks included), diagnostics, and formatting.
package dsl
