"""The intermediate model (`ir`) of a contract and what builds it from a loaded spec."""
