ALTER TABLE "report_pins" ADD COLUMN "parameters" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "report_pins" ADD COLUMN "display" text DEFAULT 'report' NOT NULL;--> statement-breakpoint
ALTER TABLE "report_pins" ADD COLUMN "measure" text;--> statement-breakpoint
ALTER TABLE "report_schedules" ADD COLUMN "parameters" jsonb DEFAULT '{}'::jsonb NOT NULL;