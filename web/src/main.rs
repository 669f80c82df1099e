fn main() {
    tcplab_web::start();
}
