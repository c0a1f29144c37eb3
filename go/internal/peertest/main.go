// Command peertest prepares one test file of a peer library to run against
// this module (scripts/test-go-peers.sh): it sets the package clause,
// rewrites import paths, drops the named top-level declarations (tests of
// the peer's private internals), removes the imports that only those used,
// and dot-imports the package under test when the file names its exported
// identifiers unqualified, as in-package tests do.
//
//	go run ./internal/peertest -pkg blake3_test -dot PATH -drop A,B -import OLD=NEW in.go out.go
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path"
	"strconv"
	"strings"
	"unicode"
)

type replacements map[string]string

func (r replacements) String() string { return fmt.Sprint(map[string]string(r)) }

func (r replacements) Set(s string) error {
	old, repl, ok := strings.Cut(s, "=")
	if !ok {
		return fmt.Errorf("want OLD=NEW, got %q", s)
	}
	r[old] = repl
	return nil
}

func main() {
	pkg := flag.String("pkg", "", "package clause of the output")
	dot := flag.String("dot", "", "import path to dot-import if the file uses exported names unqualified")
	drop := flag.String("drop", "", "comma-separated top-level declarations to drop")
	imports := replacements{}
	flag.Var(imports, "import", "OLD=NEW import path rewrite (repeatable)")
	flag.Parse()
	if flag.NArg() != 2 || *pkg == "" {
		fmt.Fprintln(os.Stderr, "usage: peertest -pkg NAME [-dot PATH] [-drop A,B] [-import OLD=NEW] in.go out.go")
		os.Exit(2)
	}
	if err := run(flag.Arg(0), flag.Arg(1), *pkg, *dot, *drop, imports); err != nil {
		fmt.Fprintln(os.Stderr, "peertest:", err)
		os.Exit(1)
	}
}

func run(in, out, pkg, dot, drop string, imports replacements) error {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, in, nil, parser.ParseComments)
	if err != nil {
		return err
	}
	f.Name.Name = pkg
	dropped := map[string]bool{}
	for _, name := range strings.Split(drop, ",") {
		if name != "" {
			dropped[name] = false
		}
	}
	var gone []span
	f.Decls, gone = dropDecls(f.Decls, dropped)
	for name, found := range dropped {
		if !found {
			return fmt.Errorf("%s: no declaration %s to drop", in, name)
		}
	}
	// Comments inside dropped declarations would be printed in their place.
	var comments []*ast.CommentGroup
	for _, c := range f.Comments {
		if !inside(gone, c.Pos()) {
			comments = append(comments, c)
		}
	}
	f.Comments = comments
	// Before the rewrite, while a path's last element is its package's name.
	removeUnusedImports(f)
	for _, spec := range f.Imports {
		p, _ := strconv.Unquote(spec.Path.Value)
		if repl, ok := imports[p]; ok {
			spec.Path.Value = strconv.Quote(repl)
		}
	}
	if dot != "" && usesExportedUnqualified(f) {
		addImport(f, ".", dot)
	}
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, f); err != nil {
		return err
	}
	return os.WriteFile(out, buf.Bytes(), 0o644)
}

// span is the source of a dropped declaration, its doc comment included.
type span struct{ start, end token.Pos }

func inside(spans []span, pos token.Pos) bool {
	for _, s := range spans {
		if pos >= s.start && pos < s.end {
			return true
		}
	}
	return false
}

// dropDecls removes functions, types, variables and constants named in
// dropped, marking each one found, and returns what is kept and the spans
// of what is not.
func dropDecls(decls []ast.Decl, dropped map[string]bool) ([]ast.Decl, []span) {
	var kept []ast.Decl
	var gone []span
	for _, d := range decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if _, ok := dropped[d.Name.Name]; ok && d.Recv == nil {
				dropped[d.Name.Name] = true
				gone = append(gone, span{docStart(d.Doc, d.Pos()), d.End()})
				continue
			}
		case *ast.GenDecl:
			var specs []ast.Spec
			for _, s := range d.Specs {
				if name := specName(s); name != "" {
					if _, ok := dropped[name]; ok {
						dropped[name] = true
						gone = append(gone, span{s.Pos(), s.End()})
						continue
					}
				}
				specs = append(specs, s)
			}
			if len(specs) == 0 {
				gone = append(gone, span{docStart(d.Doc, d.Pos()), d.End()})
				continue
			}
			d.Specs = specs
		}
		kept = append(kept, d)
	}
	return kept, gone
}

func docStart(doc *ast.CommentGroup, pos token.Pos) token.Pos {
	if doc != nil {
		return doc.Pos()
	}
	return pos
}

// specName is the name a type spec or a single-name value spec declares.
func specName(s ast.Spec) string {
	switch s := s.(type) {
	case *ast.TypeSpec:
		return s.Name.Name
	case *ast.ValueSpec:
		if len(s.Names) == 1 {
			return s.Names[0].Name
		}
	}
	return ""
}

// removeUnusedImports drops the imports that no selector in f refers to.
func removeUnusedImports(f *ast.File) {
	used := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				used[id.Name] = true
			}
		}
		return true
	})
	var kept []*ast.ImportSpec
	for _, spec := range f.Imports {
		p, _ := strconv.Unquote(spec.Path.Value)
		name := path.Base(p)
		if spec.Name != nil {
			name = spec.Name.Name
		}
		if name == "_" || name == "." || used[name] {
			kept = append(kept, spec)
		}
	}
	f.Imports = kept
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			var specs []ast.Spec
			for _, s := range gd.Specs {
				for _, k := range kept {
					if s == k {
						specs = append(specs, s)
					}
				}
			}
			gd.Specs = specs
		}
	}
}

// usesExportedUnqualified reports whether f uses an exported identifier
// that it does not declare, which in a package's own test file is the
// package's.
func usesExportedUnqualified(f *ast.File) bool {
	for _, id := range f.Unresolved {
		if unicode.IsUpper([]rune(id.Name)[0]) {
			return true
		}
	}
	return false
}

func addImport(f *ast.File, name, p string) {
	spec := &ast.ImportSpec{Name: ast.NewIdent(name), Path: &ast.BasicLit{Kind: token.STRING, Value: strconv.Quote(p)}}
	f.Imports = append(f.Imports, spec)
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			gd.Specs = append(gd.Specs, spec)
			gd.Lparen = 1 // print as a list
			return
		}
	}
	f.Decls = append([]ast.Decl{&ast.GenDecl{Tok: token.IMPORT, Specs: []ast.Spec{spec}}}, f.Decls...)
}
