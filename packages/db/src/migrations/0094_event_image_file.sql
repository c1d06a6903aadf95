-- An event's image is a library file (decision 0092): deleting the file clears the event's image (the event then shows
-- none, as it would after "Remove image"), rather than leaving it pointing at nothing. Existing dangling references
-- are cleared first.
UPDATE events e SET image_file_id = NULL
 WHERE e.image_file_id IS NOT NULL
   AND NOT EXISTS (SELECT 1 FROM files f WHERE f.tenant_id = e.tenant_id AND f.file_id = e.image_file_id);
--> statement-breakpoint
ALTER TABLE events ADD CONSTRAINT events_image_file_fk FOREIGN KEY (tenant_id, image_file_id)
  REFERENCES files (tenant_id, file_id) ON DELETE SET NULL (image_file_id);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS events_image_file_idx ON events (tenant_id, image_file_id) WHERE image_file_id IS NOT NULL;
