SELECT d.timestamp, sev.label AS severity, src.name AS source, d.text
FROM DIAGNOSTIC_EVENT AS d
JOIN ENUM_DIAGNOSTIC_SEVERITY_LEVEL AS sev ON sev.id = d.severity
JOIN ENUM_DIAGNOSTIC_SOURCE_TYPE AS src ON src.id = d.source
ORDER BY d.timestamp, d.text;
