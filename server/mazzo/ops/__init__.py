"""Running several replicas locally: behind Envoy, for tests and the bench."""
