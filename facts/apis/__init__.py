"""DRF views of the facts app, one module per area of the REST contract."""
