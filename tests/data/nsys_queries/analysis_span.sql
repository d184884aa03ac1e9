SELECT globalVid, duration, startTime, stopTime FROM ANALYSIS_DETAILS;
