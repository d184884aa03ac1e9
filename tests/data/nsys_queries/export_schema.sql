-- The export's schema version, which schema-aware readers load before they choose their queries.
SELECT name, value FROM META_DATA_EXPORT WHERE name LIKE 'EXPORT_SCHEMA_VERSION%' ORDER BY name;
