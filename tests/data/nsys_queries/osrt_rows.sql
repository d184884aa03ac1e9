-- Whole OS runtime rows by position (callchainId is the export's id).
SELECT * FROM OSRT_API ORDER BY start, globalTid, nameId LIMIT 300;
