"""The gRPC layer: translate, validate, call the rules, translate back."""
