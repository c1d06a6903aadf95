CREATE TABLE "saved_queries" (
	"tenant_id" uuid NOT NULL,
	"query_id" bigint DEFAULT gh_next_id('saved_queries') NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"group_name" text DEFAULT 'Our queries' NOT NULL,
	"sql" text NOT NULL,
	"created_by_user_id" bigint,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "saved_queries_tenant_id_query_id_pk" PRIMARY KEY("tenant_id","query_id")
);
--> statement-breakpoint
ALTER TABLE "saved_queries" ADD CONSTRAINT "saved_queries_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;