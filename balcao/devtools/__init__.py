"""Developer tools: code generation and checks that run from the repository, not in production."""
