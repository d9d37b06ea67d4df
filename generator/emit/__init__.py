"""Source text from the model: templates, imports, formatting, the package on disk."""
