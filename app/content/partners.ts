/**
 * Partner categories and directories (product-rules §2 "Partners overview", "Partner directory",
 * §3 PartnerCategoryCard and Partner, §9: about 90 music and about 160 film partners).
 *
 * The names are public distribution outlets (stores, streaming and video-on-demand services).
 * Logos are our own generated wordmarks (commands/generate-partner-logos.ts: an SVG, and the PNG
 * rendered from it that the page shows, ADR 0030 and 0150), so no page requests anything from a
 * third party. product-rules §3 gives .png/.jpg/.jpeg logo paths; the file is named by the slug.
 */

export type PartnerCategoryId = "music" | "film" | "youtube";

export interface PartnerCategoryCard {
  id: PartnerCategoryId;
  title: string;
  description: string;
  /** lucide icon, resolved by the page */
  icon: "music" | "film" | "video";
  /** Route of the category's directory. */
  link: `/partners/${PartnerCategoryId}`;
  /** Unavailable categories show "Coming Soon" (product-rules §4 "Partner categories and Web3 topics"). */
  available: boolean;
}

export interface Partner {
  name: string;
  /** File-name-safe key, unique within a category. */
  slug: string;
  /** /assets/dsps/{music|film}/{slug}.png (rendered from {slug}.svg beside it) */
  logo: `/assets/dsps/${"music" | "film"}/${string}.png`;
  /** The partner's own site (opens in a new tab). */
  url: string;
}

/** Detail copy of one category's directory page. */
export interface PartnerDirectory {
  id: PartnerCategoryId;
  title: string;
  description: string;
  partners: Partner[];
}

export const partnersPage = {
  title: "Our Partners",
  subtitle:
    "Your releases reach listeners and viewers through the stores, streaming services and platforms below. One upload, delivered everywhere that matters.",
} as const;

export const partnerCategories: PartnerCategoryCard[] = [
  {
    id: "music",
    title: "Music DSPs",
    description: "Streaming services, download stores, social platforms and in-store music providers that carry your music worldwide.",
    icon: "music",
    link: "/partners/music",
    available: true,
  },
  {
    id: "film",
    title: "Film DSPs",
    description: "Subscription, ad-supported and transactional video-on-demand platforms, broadcasters and pay-TV operators for your films.",
    icon: "film",
    link: "/partners/film",
    available: true,
  },
  {
    id: "youtube",
    title: "YouTube Partners",
    description: "Networks and services for channel owners: content identification, monetization and audience growth.",
    icon: "video",
    link: "/partners/youtube",
    available: false,
  },
];

/** Turns a display name into a file-name-safe key: "Disney+" → "disney-plus". */
export function partnerSlug(name: string): string {
  return name
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/\+/g, " plus")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

function partner(category: "music" | "film", name: string, url: string): Partner {
  const slug = partnerSlug(name);
  return { name, slug, logo: `/assets/dsps/${category}/${slug}.png`, url };
}

const m = (name: string, url: string) => partner("music", name, url);
const f = (name: string, url: string) => partner("film", name, url);

export const musicPartners: Partner[] = [
  m("Spotify", "https://www.spotify.com"),
  m("Apple Music", "https://www.apple.com/apple-music/"),
  m("iTunes Store", "https://www.apple.com/itunes/"),
  m("Amazon Music", "https://music.amazon.com"),
  m("YouTube Music", "https://music.youtube.com"),
  m("Deezer", "https://www.deezer.com"),
  m("TIDAL", "https://tidal.com"),
  m("Pandora", "https://www.pandora.com"),
  m("SiriusXM", "https://www.siriusxm.com"),
  m("iHeartRadio", "https://www.iheart.com"),
  m("SoundCloud", "https://soundcloud.com"),
  m("Audiomack", "https://audiomack.com"),
  m("Napster", "https://www.napster.com"),
  m("Qobuz", "https://www.qobuz.com"),
  m("7digital", "https://www.7digital.com"),
  m("Beatport", "https://www.beatport.com"),
  m("Beatsource", "https://www.beatsource.com"),
  m("Traxsource", "https://www.traxsource.com"),
  m("Juno Download", "https://www.junodownload.com"),
  m("Bandcamp", "https://bandcamp.com"),
  m("Boomplay", "https://www.boomplay.com"),
  m("Mdundo", "https://mdundo.com"),
  m("Anghami", "https://www.anghami.com"),
  m("JioSaavn", "https://www.jiosaavn.com"),
  m("Gaana", "https://gaana.com"),
  m("Wynk Music", "https://wynk.in"),
  m("Hungama Music", "https://www.hungama.com"),
  m("Musixmatch", "https://www.musixmatch.com"),
  m("NetEase Cloud Music", "https://music.163.com"),
  m("QQ Music", "https://y.qq.com"),
  m("Kugou Music", "https://www.kugou.com"),
  m("Kuwo Music", "https://www.kuwo.cn"),
  m("JOOX", "https://www.joox.com"),
  m("KKBOX", "https://www.kkbox.com"),
  m("LINE MUSIC", "https://music.line.me"),
  m("AWA", "https://awa.fm"),
  m("Rakuten Music", "https://music.rakuten.co.jp"),
  m("Recochoku", "https://recochoku.jp"),
  m("mora", "https://mora.jp"),
  m("Melon", "https://www.melon.com"),
  m("Genie Music", "https://www.genie.co.kr"),
  m("FLO", "https://www.music-flo.com"),
  m("Bugs", "https://music.bugs.co.kr"),
  m("VIBE", "https://vibe.naver.com"),
  m("Yandex Music", "https://music.yandex.ru"),
  m("Zvuk", "https://zvuk.com"),
  m("VK Music", "https://vk.com/music"),
  m("Claro música", "https://www.claromusica.com"),
  m("TREBEL", "https://trebel.io"),
  m("Kuack Media", "https://www.kuackmedia.com"),
  m("LiveOne", "https://www.liveone.com"),
  m("Slacker Radio", "https://www.liveone.com/radio"),
  m("eMusic", "https://www.emusic.com"),
  m("Resso", "https://www.resso.com"),
  m("TikTok", "https://www.tiktok.com"),
  m("CapCut", "https://www.capcut.com"),
  m("Instagram", "https://www.instagram.com"),
  m("Facebook", "https://www.facebook.com"),
  m("Snapchat", "https://www.snapchat.com"),
  m("Triller", "https://triller.co"),
  m("Shazam", "https://www.shazam.com"),
  m("Tencent Music", "https://www.tencentmusic.com"),
  m("Kuaishou", "https://www.kuaishou.com"),
  m("Douyin", "https://www.douyin.com"),
  m("Peloton", "https://www.onepeloton.com"),
  m("Roblox", "https://www.roblox.com"),
  m("Twitch", "https://www.twitch.tv"),
  m("Mixcloud", "https://www.mixcloud.com"),
  m("Audible Magic", "https://www.audiblemagic.com"),
  m("Gracenote", "https://www.gracenote.com"),
  m("MediaNet", "https://www.mndigital.com"),
  m("Tuned Global", "https://www.tunedglobal.com"),
  m("Jaxsta", "https://jaxsta.com"),
  m("TouchTunes", "https://www.touchtunes.com"),
  m("AMI Entertainment", "https://www.amientertainment.net"),
  m("Soundtrack Your Brand", "https://www.soundtrackyourbrand.com"),
  m("Mood Media", "https://us.moodmedia.com"),
  m("PlayNetwork", "https://www.playnetwork.com"),
  m("Rockbot", "https://rockbot.com"),
  m("Qsic", "https://www.qsic.ai"),
  m("Pretzel", "https://www.pretzel.rocks"),
  m("hoopla digital", "https://www.hoopladigital.com"),
  m("Jamendo", "https://www.jamendo.com"),
  m("Audius", "https://audius.co"),
  m("LyricFind", "https://www.lyricfind.com"),
  m("Presto Music", "https://www.prestomusic.com"),
  m("Sonos Radio", "https://www.sonos.com/sonos-radio"),
  m("Yango Music", "https://yango.com"),
  m("HDtracks", "https://www.hdtracks.com"),
  m("IDAGIO", "https://www.idagio.com"),
  m("Vevo", "https://www.vevo.com"),
];

export const filmPartners: Partner[] = [
  f("Amazon Prime Video", "https://www.primevideo.com"),
  f("Apple TV", "https://tv.apple.com"),
  f("Google TV", "https://tv.google"),
  f("YouTube Movies", "https://www.youtube.com/movies"),
  f("Netflix", "https://www.netflix.com"),
  f("Hulu", "https://www.hulu.com"),
  f("Tubi", "https://tubitv.com"),
  f("Pluto TV", "https://pluto.tv"),
  f("The Roku Channel", "https://therokuchannel.roku.com"),
  f("Plex", "https://www.plex.tv"),
  f("Fandango at Home", "https://athome.fandango.com"),
  f("Xumo Play", "https://play.xumo.com"),
  f("Crackle", "https://www.crackle.com"),
  f("Peacock", "https://www.peacocktv.com"),
  f("Paramount+", "https://www.paramountplus.com"),
  f("Max", "https://www.max.com"),
  f("Disney+", "https://www.disneyplus.com"),
  f("STARZ", "https://www.starz.com"),
  f("MGM+", "https://www.mgmplus.com"),
  f("AMC+", "https://www.amcplus.com"),
  f("Shudder", "https://www.shudder.com"),
  f("Sundance Now", "https://www.sundancenow.com"),
  f("IFC Films Unlimited", "https://www.ifcfilms.com"),
  f("ALLBLK", "https://allblk.tv"),
  f("Acorn TV", "https://acorn.tv"),
  f("BritBox", "https://www.britbox.com"),
  f("Hallmark+", "https://www.hallmarkplus.com"),
  f("Kanopy", "https://www.kanopy.com"),
  f("hoopla", "https://www.hoopladigital.com"),
  f("FilmRise", "https://www.filmrise.com"),
  f("Fandor", "https://www.fandor.com"),
  f("MUBI", "https://mubi.com"),
  f("The Criterion Channel", "https://www.criterionchannel.com"),
  f("CuriosityStream", "https://curiositystream.com"),
  f("Gaia", "https://www.gaia.com"),
  f("Sling TV", "https://www.sling.com"),
  f("Fubo", "https://www.fubo.tv"),
  f("Philo", "https://www.philo.com"),
  f("Vimeo On Demand", "https://vimeo.com/ondemand"),
  f("Amazon Freevee", "https://www.amazon.com/freevee"),
  f("Redbox", "https://www.redbox.com"),
  f("Local Now", "https://localnow.com"),
  f("Popcornflix", "https://www.popcornflix.com"),
  f("Filmzie", "https://filmzie.com"),
  f("Crunchyroll", "https://www.crunchyroll.com"),
  f("HIDIVE", "https://www.hidive.com"),
  f("Viki", "https://www.viki.com"),
  f("Viu", "https://www.viu.com"),
  f("iQIYI", "https://www.iq.com"),
  f("WeTV", "https://wetv.vip"),
  f("Tencent Video", "https://v.qq.com"),
  f("Youku", "https://www.youku.com"),
  f("Bilibili", "https://www.bilibili.com"),
  f("JioHotstar", "https://www.hotstar.com"),
  f("ZEE5", "https://www.zee5.com"),
  f("Sony LIV", "https://www.sonyliv.com"),
  f("MX Player", "https://www.mxplayer.in"),
  f("Eros Now", "https://erosnow.com"),
  f("hoichoi", "https://www.hoichoi.tv"),
  f("aha", "https://www.aha.video"),
  f("Sun NXT", "https://www.sunnxt.com"),
  f("ShemarooMe", "https://www.shemaroome.com"),
  f("Showmax", "https://www.showmax.com"),
  f("DStv", "https://www.dstv.com"),
  f("iROKOtv", "https://irokotv.com"),
  f("Canal+", "https://www.canalplus.com"),
  f("Rakuten TV", "https://www.rakuten.tv"),
  f("Videoland", "https://www.videoland.com"),
  f("Viaplay", "https://viaplay.com"),
  f("Joyn", "https://www.joyn.de"),
  f("RTL+", "https://plus.rtl.de"),
  f("Sky", "https://www.sky.com"),
  f("NOW", "https://www.nowtv.com"),
  f("BBC iPlayer", "https://www.bbc.co.uk/iplayer"),
  f("ITVX", "https://www.itv.com"),
  f("Channel 4", "https://www.channel4.com"),
  f("RTÉ Player", "https://www.rte.ie/player"),
  f("TVNZ+", "https://www.tvnz.co.nz"),
  f("Stan", "https://www.stan.com.au"),
  f("BINGE", "https://binge.com.au"),
  f("Foxtel", "https://www.foxtel.com.au"),
  f("Crave", "https://www.crave.ca"),
  f("CBC Gem", "https://gem.cbc.ca"),
  f("ICI TOU.TV", "https://ici.tou.tv"),
  f("Globoplay", "https://globoplay.globo.com"),
  f("Claro video", "https://www.clarovideo.com"),
  f("ViX", "https://vix.com"),
  f("Movistar Plus+", "https://www.movistarplus.es"),
  f("atresplayer", "https://www.atresplayer.com"),
  f("RTVE Play", "https://www.rtve.es/play"),
  f("Filmin", "https://www.filmin.es"),
  f("Mediaset Infinity", "https://mediasetinfinity.mediaset.it"),
  f("RaiPlay", "https://www.raiplay.it"),
  f("TIMvision", "https://www.timvision.it"),
  f("CHILI", "https://it.chili.com"),
  f("france.tv", "https://www.france.tv"),
  f("ARTE", "https://www.arte.tv"),
  f("Molotov", "https://www.molotov.tv"),
  f("Pathé Home", "https://www.pathe-home.com"),
  f("NLZIET", "https://www.nlziet.nl"),
  f("SVT Play", "https://www.svtplay.se"),
  f("TV 2 Play", "https://play.tv2.dk"),
  f("NRK TV", "https://tv.nrk.no"),
  f("Yle Areena", "https://areena.yle.fi"),
  f("Ruutu", "https://www.ruutu.fi"),
  f("Kinopoisk", "https://www.kinopoisk.ru"),
  f("Okko", "https://okko.tv"),
  f("ivi", "https://www.ivi.ru"),
  f("Megogo", "https://megogo.net"),
  f("U-NEXT", "https://video.unext.jp"),
  f("Hulu Japan", "https://www.hulu.jp"),
  f("ABEMA", "https://abema.tv"),
  f("Lemino", "https://lemino.docomo.ne.jp"),
  f("FOD", "https://fod.fujitv.co.jp"),
  f("TVer", "https://tver.jp"),
  f("TVING", "https://www.tving.com"),
  f("Wavve", "https://www.wavve.com"),
  f("Coupang Play", "https://www.coupangplay.com"),
  f("Watcha", "https://watcha.com"),
  f("KKTV", "https://www.kktv.me"),
  f("LiTV", "https://www.litv.tv"),
  f("CATCHPLAY+", "https://www.catchplay.com"),
  f("Vidio", "https://www.vidio.com"),
  f("TrueID", "https://www.trueid.net"),
  f("Astro", "https://www.astro.com.my"),
  f("meWATCH", "https://www.mewatch.sg"),
  f("Shahid", "https://shahid.mbc.net"),
  f("OSN+", "https://osnplus.com"),
  f("STARZPLAY", "https://starzplay.com"),
  f("Weyyak", "https://weyyak.com"),
  f("TOD", "https://www.tod.tv"),
  f("WATCH IT", "https://www.watchit.com"),
  f("BET+", "https://www.bet.plus"),
  f("UMC", "https://www.umc.tv"),
  f("KweliTV", "https://www.kweli.tv"),
  f("Topic", "https://www.topic.com"),
  f("Dekkoo", "https://www.dekkoo.com"),
  f("Revry", "https://revry.tv"),
  f("OVID", "https://www.ovid.tv"),
  f("Film Movement Plus", "https://www.filmmovementplus.com"),
  f("Kino Now", "https://kinonow.com"),
  f("Cineverse", "https://www.cineverse.com"),
  f("Screambox", "https://www.screambox.com"),
  f("Dove Channel", "https://dovechannel.com"),
  f("Great American Pure Flix", "https://www.greatamericanpureflix.com"),
  f("Angel Studios", "https://www.angel.com"),
  f("Frndly TV", "https://try.frndlytv.com"),
  f("Samsung TV Plus", "https://www.samsung.com/us/tvs/smart-tv/samsung-tv-plus/"),
  f("LG Channels", "https://www.lg.com/us/lg-channels"),
  f("VIZIO WatchFree+", "https://www.vizio.com/en/watchfreeplus-explore"),
  f("DistroTV", "https://www.distro.tv"),
  f("STIRR", "https://stirr.com"),
  f("Microsoft Store", "https://www.microsoft.com/store/movies-and-tv"),
  f("PlayStation Store", "https://store.playstation.com"),
  f("Xfinity", "https://www.xfinity.com"),
  f("Verizon Fios", "https://www.verizon.com/home/fios-tv/"),
  f("DIRECTV", "https://www.directv.com"),
  f("DISH", "https://www.dish.com"),
  f("Spectrum", "https://www.spectrum.com"),
  f("Cox", "https://www.cox.com"),
  f("Optimum", "https://www.optimum.com"),
  f("Cinemax", "https://www.cinemax.com"),
];

export const partnerDirectories: Record<PartnerCategoryId, PartnerDirectory> = {
  music: {
    id: "music",
    title: "Music DSPs",
    description:
      "Digital service providers that stream, sell and play your music in more than 150 countries. Every release you distribute with us is delivered to all of them, with weekly notifications of the stores that carry it.",
    partners: musicPartners,
  },
  film: {
    id: "film",
    title: "Film DSPs",
    description:
      "Video-on-demand platforms, broadcasters and pay-TV operators that license and stream independent films. We check your deliverables, prepare subtitles and trailers, and submit your film to the partners that fit it.",
    partners: filmPartners,
  },
  youtube: {
    id: "youtube",
    title: "YouTube Partners",
    description: "Partnerships for video-platform creators and channel networks.",
    partners: [],
  },
};

/** product-rules §2: youtube (any unavailable category) has no partners yet. */
export const comingSoonText = "We're working on bringing you exciting partnerships. Stay tuned!";

export function findPartnerDirectory(category: string): PartnerDirectory | undefined {
  return Object.hasOwn(partnerDirectories, category) ? partnerDirectories[category as PartnerCategoryId] : undefined;
}

export function isCategoryAvailable(id: PartnerCategoryId): boolean {
  return partnerCategories.find((c) => c.id === id)?.available ?? false;
}
