export { AdminLoading as default } from "@/components/admin/loading";
