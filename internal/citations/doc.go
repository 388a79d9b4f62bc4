// Package citations holds a repository-wide test: every tracked file, every
// artifact built from the examples and every diagnostic they produce must
// cite public documents (a vendor manual by title and section, a public
// repository file), never the private notes or machine paths fabricc was
// first written from. The package has no code of its own.
package citations
