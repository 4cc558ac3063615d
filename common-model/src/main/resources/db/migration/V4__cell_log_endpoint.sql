-- Where a cell serves its instances' logs (the rep's internal log server, http://host:port); null when it serves none.
ALTER TABLE cells ADD COLUMN log_endpoint varchar(256);
