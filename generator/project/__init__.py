"""Projects around a contract: `contractgen new`, the implementation check, conformance."""
