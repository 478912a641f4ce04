"""The paper's example specs, shipped with the package."""
