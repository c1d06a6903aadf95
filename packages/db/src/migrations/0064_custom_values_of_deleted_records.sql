-- A deleted record's custom values go with it (decision 0111): drop those left by contacts and memberships deleted
-- before the delete removed them.
DELETE FROM "custom_field_values" v
 USING "custom_fields" f, "contacts" c
 WHERE f."tenant_id" = v."tenant_id" AND f."custom_field_id" = v."field_id" AND f."entity" = 'Contact'
   AND c."tenant_id" = v."tenant_id" AND c."contact_id" = v."record_id" AND c."is_deleted";
--> statement-breakpoint
DELETE FROM "custom_field_values" v
 USING "custom_fields" f, "memberships" m
 WHERE f."tenant_id" = v."tenant_id" AND f."custom_field_id" = v."field_id" AND f."entity" = 'Membership'
   AND m."tenant_id" = v."tenant_id" AND m."membership_id" = v."record_id" AND m."is_deleted";
