export default function Page() {
  return <h1>podcasts</h1>;
}
