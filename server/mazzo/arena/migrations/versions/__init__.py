"""The arena's migrations, one module per revision, oldest first."""
