-- Whole synchronization rows by position: context syncs carry nsys's "no stream" id 4294967295, never NULL.
SELECT * FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION ORDER BY start LIMIT 300;
