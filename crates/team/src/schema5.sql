-- Version 5 (issue 37): what the platform answered an approved request, for its requester.
ALTER TABLE requests ADD COLUMN answer TEXT;
