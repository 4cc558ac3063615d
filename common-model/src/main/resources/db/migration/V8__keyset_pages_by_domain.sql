-- The lists of one domain page in key order (keyset pagination, the read model's ActualLrpRows.page and
-- DesiredLrpRows.page): each page is one index range scan, however large the domain. These indexes also serve every
-- lookup by domain alone, so they replace the single-column ones rather than adding to the indexes a write maintains.
CREATE INDEX actual_lrps_domain_key_idx ON actual_lrps (domain, process_guid, instance_index);
DROP INDEX actual_lrps_domain_idx;
CREATE INDEX desired_lrps_domain_key_idx ON desired_lrps (domain, process_guid);
DROP INDEX desired_lrps_domain_idx;
