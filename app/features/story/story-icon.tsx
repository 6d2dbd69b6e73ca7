import {
  BadgeDollarSign,
  BookOpen,
  Brain,
  ChartColumnIncreasing,
  Coins,
  Compass,
  Eye,
  Film,
  Gamepad2,
  Globe,
  Handshake,
  Headphones,
  HeartHandshake,
  Layers,
  LayoutDashboard,
  Lightbulb,
  Lock,
  Music,
  Network,
  Rocket,
  ShieldCheck,
  Sparkles,
  Tag,
  Target,
  TrendingUp,
  Tv,
  Users,
  WandSparkles,
  type LucideIcon,
} from "lucide-react";
import type { StoryIconName } from "~/content/story-icons";
import { cn } from "~/lib/cn";

const ICONS: Record<StoryIconName, LucideIcon> = {
  music: Music,
  film: Film,
  "shield-check": ShieldCheck,
  layers: Layers,
  sparkles: Sparkles,
  users: Users,
  gamepad: Gamepad2,
  "trending-up": TrendingUp,
  brain: Brain,
  globe: Globe,
  "heart-handshake": HeartHandshake,
  eye: Eye,
  compass: Compass,
  lightbulb: Lightbulb,
  "book-open": BookOpen,
  rocket: Rocket,
  target: Target,
  coins: Coins,
  chart: ChartColumnIncreasing,
  "layout-dashboard": LayoutDashboard,
  network: Network,
  headphones: Headphones,
  wand: WandSparkles,
  "badge-dollar": BadgeDollarSign,
  tv: Tv,
  tag: Tag,
  lock: Lock,
  handshake: Handshake,
};

/** A decorative icon named by content; hidden from assistive technology. */
export function StoryIcon({ name, className }: { name: StoryIconName; className?: string }) {
  const Icon = ICONS[name];
  return <Icon aria-hidden="true" focusable="false" className={cn("size-5", className)} strokeWidth={1.75} />;
}

/** The icon in a softly glowing rounded square, used at the top of cards. */
export function IconTile({ name, color, className }: { name: StoryIconName; color?: string; className?: string }) {
  return (
    <span
      className={cn(
        "inline-flex size-12 shrink-0 items-center justify-center rounded-2xl border border-white/10 text-white",
        className,
      )}
      style={{
        background: color
          ? `linear-gradient(135deg, ${color}55, ${color}1f)`
          : "linear-gradient(135deg, rgb(255 122 69 / 0.35), rgb(139 92 246 / 0.25))",
        boxShadow: color ? `0 10px 30px -12px ${color}` : "0 10px 30px -12px rgb(226 58 122 / 0.8)",
      }}
    >
      <StoryIcon name={name} className="size-6" />
    </span>
  );
}
