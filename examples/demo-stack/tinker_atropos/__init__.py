"""The demo's stand-in for the tinker_atropos package (environments live in environments/)."""
