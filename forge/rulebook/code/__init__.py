"""The rulebook as code: rules kept in reviewed files, tested like code, changed through a plan.

- rulefile: rule files and rule-test files read from YAML (line numbers, YAML 1.2 booleans) and checked
  against the published schema (schema: the JSON Schemas of both, built from the vocabulary)
- meaning: what an entry means: a stated trigger, validated as a compiled one is; else compiled, once
- plan: the pure plan (add / new version / withdraw / unchanged, and maintenance's consequences)
- workflow: plan against a real book, saved plans, apply by compare-and-set, scratch copies
- origin: a file's git commit, the provenance of what is applied
- export: a book written as a rule file (round-trips through apply)
- ruletest: rule tests' verdicts (pure) and JUnit XML
- lint: what is wrong with rule files, without a model or a book

docs/rulebook-as-code.md walks through all of it. The commands (`forge rulebook plan|apply|test|lint`,
`export --format yaml`) are in forge/commands/rulebook.py.
"""
