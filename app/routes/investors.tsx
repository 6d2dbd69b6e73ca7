export default function Page() {
  return <h1>investors</h1>;
}
