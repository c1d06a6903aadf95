DROP INDEX "contacts_display_name_idx";--> statement-breakpoint
DROP INDEX "contacts_last_name_idx";--> statement-breakpoint
DROP INDEX "contacts_status_idx";--> statement-breakpoint
DROP INDEX "contacts_type_idx";--> statement-breakpoint
DROP INDEX "contacts_city_idx";--> statement-breakpoint
CREATE INDEX "contact_entries_by_key" ON "contact_entries" USING btree ("tenant_id","entry_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "contact_entries_by_comm_type" ON "contact_entries" USING btree ("tenant_id","comm_type","entry_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "contact_entries_by_value" ON "contact_entries" USING btree ("tenant_id","value","entry_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "contact_entries_by_contact_id" ON "contact_entries" USING btree ("tenant_id","contact_id","entry_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "contact_entries_by_contact_id_comm_type" ON "contact_entries" USING btree ("tenant_id","contact_id","comm_type","entry_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "contact_entries_by_contact_id_value" ON "contact_entries" USING btree ("tenant_id","contact_id","value","entry_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "contact_links_by_key" ON "contact_links" USING btree ("tenant_id","link_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "contact_links_by_link_type" ON "contact_links" USING btree ("tenant_id","link_type","link_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "contact_links_by_contact_id" ON "contact_links" USING btree ("tenant_id","contact_id","link_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "contact_links_by_contact_id_link_type" ON "contact_links" USING btree ("tenant_id","contact_id","link_type","link_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "contacts_by_key" ON "contacts" USING btree ("tenant_id","contact_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "contacts_by_display_name" ON "contacts" USING btree ("tenant_id","display_name","contact_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "contacts_by_last_name" ON "contacts" USING btree ("tenant_id","last_name","contact_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "contacts_by_first_name" ON "contacts" USING btree ("tenant_id","first_name","contact_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "contacts_by_contact_type" ON "contacts" USING btree ("tenant_id","contact_type","contact_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "contacts_by_status" ON "contacts" USING btree ("tenant_id","status","contact_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "contacts_by_account_number" ON "contacts" USING btree ("tenant_id","account_number","contact_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "contacts_by_city" ON "contacts" USING btree ("tenant_id","city","contact_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "contacts_by_status_display_name" ON "contacts" USING btree ("tenant_id","status","display_name","contact_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "contacts_by_status_last_name" ON "contacts" USING btree ("tenant_id","status","last_name","contact_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "contacts_by_status_first_name" ON "contacts" USING btree ("tenant_id","status","first_name","contact_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "contacts_by_status_contact_type" ON "contacts" USING btree ("tenant_id","status","contact_type","contact_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "contacts_by_status_account_number" ON "contacts" USING btree ("tenant_id","status","account_number","contact_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "contacts_by_status_city" ON "contacts" USING btree ("tenant_id","status","city","contact_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "contacts_by_contact_type_display_name" ON "contacts" USING btree ("tenant_id","contact_type","display_name","contact_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "contacts_by_contact_type_last_name" ON "contacts" USING btree ("tenant_id","contact_type","last_name","contact_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "contacts_by_contact_type_first_name" ON "contacts" USING btree ("tenant_id","contact_type","first_name","contact_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "contacts_by_contact_type_status" ON "contacts" USING btree ("tenant_id","contact_type","status","contact_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "contacts_by_contact_type_account_number" ON "contacts" USING btree ("tenant_id","contact_type","account_number","contact_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "contacts_by_contact_type_city" ON "contacts" USING btree ("tenant_id","contact_type","city","contact_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "contacts_by_is_listed" ON "contacts" USING btree ("tenant_id","is_listed","contact_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "contacts_by_is_listed_display_name" ON "contacts" USING btree ("tenant_id","is_listed","display_name","contact_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "contacts_by_is_listed_last_name" ON "contacts" USING btree ("tenant_id","is_listed","last_name","contact_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "contacts_by_is_listed_first_name" ON "contacts" USING btree ("tenant_id","is_listed","first_name","contact_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "contacts_by_is_listed_contact_type" ON "contacts" USING btree ("tenant_id","is_listed","contact_type","contact_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "contacts_by_is_listed_status" ON "contacts" USING btree ("tenant_id","is_listed","status","contact_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "contacts_by_is_listed_account_number" ON "contacts" USING btree ("tenant_id","is_listed","account_number","contact_id") WHERE not is_deleted;--> statement-breakpoint
CREATE INDEX "contacts_by_is_listed_city" ON "contacts" USING btree ("tenant_id","is_listed","city","contact_id") WHERE not is_deleted;