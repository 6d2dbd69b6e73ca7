import type { IconComponent } from "~/components/ui/icon";
import { BadgeDollarSign } from "~/components/ui/icons/badge-dollar-sign";
import { BookOpen } from "~/components/ui/icons/book-open";
import { Brain } from "~/components/ui/icons/brain";
import { ChartColumnIncreasing } from "~/components/ui/icons/chart-column-increasing";
import { Coins } from "~/components/ui/icons/coins";
import { Compass } from "~/components/ui/icons/compass";
import { Eye } from "~/components/ui/icons/eye";
import { Film } from "~/components/ui/icons/film";
import { Gamepad2 } from "~/components/ui/icons/gamepad-2";
import { Globe } from "~/components/ui/icons/globe";
import { Handshake } from "~/components/ui/icons/handshake";
import { Headphones } from "~/components/ui/icons/headphones";
import { HeartHandshake } from "~/components/ui/icons/heart-handshake";
import { Layers } from "~/components/ui/icons/layers";
import { LayoutDashboard } from "~/components/ui/icons/layout-dashboard";
import { Lightbulb } from "~/components/ui/icons/lightbulb";
import { Lock } from "~/components/ui/icons/lock";
import { Music } from "~/components/ui/icons/music";
import { Network } from "~/components/ui/icons/network";
import { Rocket } from "~/components/ui/icons/rocket";
import { ShieldCheck } from "~/components/ui/icons/shield-check";
import { Sparkles } from "~/components/ui/icons/sparkles";
import { Tag } from "~/components/ui/icons/tag";
import { Target } from "~/components/ui/icons/target";
import { TrendingUp } from "~/components/ui/icons/trending-up";
import { Tv } from "~/components/ui/icons/tv";
import { Users } from "~/components/ui/icons/users";
import { WandSparkles } from "~/components/ui/icons/wand-sparkles";
import type { StoryIconName } from "~/content/story-icons";
import { cn } from "~/lib/cn";

const ICONS: Record<StoryIconName, IconComponent> = {
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
